/* A million checks, from two processes of two threads each, half of an
   allowed file and half of a denied one, each with its expected answer;
   then the cred (cred_jar) and filp slabs (the new creds and the open file of a
   check) are back where they were, within SLAB_TOLERANCE objects: the
   checks leak neither.  The guest boots with slab_nomerge, so that these
   caches hold nothing else.  Runs as root (/proc/slabinfo is root's).
   Usage: test-check-soak [EXPECTED-DIR] (unused)  */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec-check.h"
#include "files.h"
#include "tap.h"

#define SOAK_DIR "/var/lib/checkexec/soak"
#define ALLOWED SOAK_DIR "/allowed"
#define DENIED SOAK_DIR "/denied"
#define PROCESSES 2
#define THREADS 2
#define CHECKS 1000000L
#define CHECKS_PER_THREAD (CHECKS / (PROCESSES * THREADS))
/* SLUB counts the objects of per-CPU slabs as in use: a few slabs of
   either cache (21 creds or 16 files each) may stay with a CPU.  A leak
   of one object in 500 checks is still 2000.  */
#define SLAB_TOLERANCE 2000L

/* Give back what CACHE holds without it being in use: the per-CPU slabs
   and, on a KASAN kernel (make kernel-debug), the freed objects in KASAN's
   quarantine.  A leaked object stays.  */
static void
shrink_cache (const char *cache)
{
  char path[128];
  snprintf (path, sizeof path, "/sys/kernel/slab/%s/shrink", cache);
  if (write_file (path, "1") != 0)
    printf ("# (counted without shrinking %s)\n", cache);
}

/* The active objects of CACHE in /proc/slabinfo, or -1.  */
static long
active_objects (const char *cache)
{
  char line[512], name[64];
  long active = -1, count;
  shrink_cache (cache);
  FILE *f = fopen ("/proc/slabinfo", "r");
  if (f == NULL)
    {
      printf ("# /proc/slabinfo: %m\n");
      return -1;
    }
  while (fgets (line, sizeof line, f) != NULL)
    if (sscanf (line, "%63s %ld", name, &count) == 2
        && strcmp (name, cache) == 0)
      active = count;
  fclose (f);
  return active;
}

/* Check the allowed and the denied file in turn: the number of answers
   that were not the expected ones.  */
static void *
check_loop (void *arg)
{
  long *wrong = arg;
  for (long i = 0; i < CHECKS_PER_THREAD; i++)
    {
      bool denied = i & 1;
      int error = exec_check_path (denied ? DENIED : ALLOWED);
      if (error != (denied ? EACCES : 0))
        ++*wrong;
    }
  return NULL;
}

/* In a child: THREADS threads of check_loop; exit status 0 when every
   answer was right.  */
static void
run_checker_process (void)
{
  pthread_t threads[THREADS];
  long wrong[THREADS] = { 0 };
  for (int t = 0; t < THREADS; t++)
    if (pthread_create (&threads[t], NULL, check_loop, &wrong[t]) != 0)
      _exit (2);
  long total = 0;
  for (int t = 0; t < THREADS; t++)
    {
      pthread_join (threads[t], NULL);
      total += wrong[t];
    }
  if (total != 0)
    printf ("# process %d: %ld wrong answers\n", (int) getpid (), total);
  fflush (stdout);
  _exit (total == 0 ? 0 : 1);
}

static bool
run_checkers (void)
{
  pid_t children[PROCESSES];
  for (int p = 0; p < PROCESSES; p++)
    {
      fflush (stdout);
      children[p] = fork ();
      if (children[p] == 0)
        run_checker_process ();
      if (children[p] < 0)
        return false;
    }
  bool ok = true;
  for (int p = 0; p < PROCESSES; p++)
    {
      int status;
      ok &= waitpid (children[p], &status, 0) == children[p]
            && WIFEXITED (status) && WEXITSTATUS (status) == 0;
    }
  return ok;
}

static void
expect_back_to (const char *cache, long before)
{
  long after = active_objects (cache);
  tap_note ("%s: %ld active objects before, %ld after", cache, before,
            after);
  tap_result (before >= 0 && after >= 0 && after - before <= SLAB_TOLERANCE,
              "%s is back at its baseline within %ld objects", cache,
              SLAB_TOLERANCE);
}

int
main (void)
{
  if (getuid () != 0)
    {
      printf ("1..1\nnot ok 1 - test-check-soak runs as root\n");
      return 1;
    }
  if (make_directory ("/var/lib/checkexec", 0755) != 0
      || make_directory (SOAK_DIR, 0755) != 0
      || write_file (ALLOWED, "") != 0 || write_file (DENIED, "") != 0
      || chmod (ALLOWED, 0755) != 0 || chmod (DENIED, 0644) != 0)
    return 1;
  tap_plan (3);
  /* Settle what booting left to free before the baseline.  */
  sleep (1);
  long creds = active_objects ("cred"), files = active_objects ("filp");
  struct timespec start, end;
  clock_gettime (CLOCK_MONOTONIC, &start);
  bool ok = run_checkers ();
  clock_gettime (CLOCK_MONOTONIC, &end);
  tap_note ("the checks took %.1f s",
            (double) (end.tv_sec - start.tv_sec)
                + (end.tv_nsec - start.tv_nsec) / 1e9);
  tap_result (ok,
              "%ld checks from %d processes of %d threads gave the expected"
              " answers",
              CHECKS, PROCESSES, THREADS);
  sleep (1);
  expect_back_to ("cred", creds);
  expect_back_to ("filp", files);
  remove_tree (SOAK_DIR);
  return tap_failures () == 0 ? 0 : 1;
}
