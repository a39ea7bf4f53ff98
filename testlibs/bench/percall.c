/* Part 1 of the benchmark: the cost of one call of each kind, side by side
   in one run, as a multiple of faccessat(X_OK).  The mmap(PROT_EXEC) of an
   allowed file is timed in a child with the bit clear and in one with the
   bit set: they differ by the kernel's mapping check (Exec Restrict).
   Three kinds take the loop towards what a check meets in ld.so's start-up:
   an mmap + munmap of a written page (a mapping change: the kernel flushes
   the page from the TLB, and TCG its software TLB), the same followed by an
   allowed check, and allowed checks of the 100 benchmark libraries in turn
   (another file each time, as ld.so checks them).  An open + close of the
   allowed file is the floor a check is compared with.  */
#include "bench.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "exec-check.h"
#include "files.h"
#include "securebits.h"
#include "timing.h"

#define ALLOWED "/usr/lib/checkexec/bin/loadcase"
#define DENIED "/var/lib/checkexec/bench-0644"
#define LIBRARIES "/usr/lib/checkexec/bench/lib/libbench-%03d.so"
#define MAX_ROUNDS 31
#define FILES_IN_TURN 100

enum call { ALLOWED_CHECK, DENIED_CHECK, FILES_CHECK, MAPPING_CHANGE,
            CHECK_AFTER_MAPPING_CHANGE, FACCESSAT, OPEN_CLOSE, FSTATVFS,
            NULL_SYSCALL, MAP_EXEC_CLEAR, MAP_EXEC_RESTRICTED, CALLS };

static const char *const call_names[CALLS] = {
  "AT_EXECVE_CHECK, allowed", "AT_EXECVE_CHECK, denied",
  "allowed, 100 files in turn", "mmap+write+munmap",
  "mmap+write+munmap, check", "faccessat(X_OK)", "open+close", "fstatvfs()",
  "null syscall (getppid)", "mmap(PROT_EXEC), bit clear",
  "mmap(PROT_EXEC), bit set",
};

static int allowed_fd, denied_fd, files_fd[FILES_IN_TURN];

static long
check (int fd)
{
  static char *const argv[] = { "check", NULL }, *const envp[] = { NULL };
  return syscall (SYS_execveat, fd, "", argv, envp,
                  AT_EMPTY_PATH | AT_EXECVE_CHECK);
}

/* Map one page of the allowed file executable and unmap it; 0 or -1.  */
static int
map_exec (void)
{
  void *code = mmap (NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE,
                     allowed_fd, 0);
  return code == MAP_FAILED ? -1 : munmap (code, 4096);
}

/* Map a private page, write to it (its page table entry is filled) and
   unmap it: munmap must then flush it from the TLB; 0 or -1.  */
static int
change_mapping (void)
{
  char *page = mmap (NULL, 4096, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED)
    return -1;
  *(volatile char *) page = 1;
  return munmap (page, 4096);
}

/* Call number I of kind C; 0, or -1 if a mapping failed.  */
static int
call (enum call c, int i)
{
  struct statvfs sv;
  switch (c)
    {
    case MAP_EXEC_CLEAR:
    case MAP_EXEC_RESTRICTED:
      return map_exec ();
    case MAPPING_CHANGE:
      return change_mapping ();
    case CHECK_AFTER_MAPPING_CHANGE:
      if (change_mapping () != 0)
        return -1;
      check (allowed_fd);
      break;
    case ALLOWED_CHECK:
      check (allowed_fd);
      break;
    case FILES_CHECK:
      check (files_fd[i % FILES_IN_TURN]);
      break;
    case DENIED_CHECK:
      check (denied_fd);
      break;
    case FACCESSAT:
      faccessat (AT_FDCWD, ALLOWED, X_OK, 0);
      break;
    case OPEN_CLOSE:
      close (open (ALLOWED, O_RDONLY | O_CLOEXEC));
      break;
    case FSTATVFS:
      fstatvfs (allowed_fd, &sv);
      break;
    default:
      syscall (SYS_getppid);
      break;
    }
  return 0;
}

/* The mean cost of a call of kind C over ITERATIONS calls, in ns; -1 if
   one failed.  */
static double
time_here (enum call c, int iterations)
{
  int failed = 0;
  double start = now_ns ();
  for (int i = 0; i < iterations; i++)
    failed |= call (c, i);
  double elapsed = now_ns () - start;
  return failed != 0 ? -1 : elapsed / iterations;
}

/* time_here in a child process, which sets SECBIT_EXEC_RESTRICT_FILE for
   MAP_EXEC_RESTRICTED; -1 if anything failed.  */
static double
time_in_child (enum call c, int iterations)
{
  double mean = -1;
  int pipefd[2];
  if (pipe (pipefd) != 0)
    return -1;
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      if (c == MAP_EXEC_RESTRICTED && set_restrict_file () != 0)
        _exit (1);
      mean = time_here (c, iterations);
      _exit (write (pipefd[1], &mean, sizeof mean) == sizeof mean ? 0 : 1);
    }
  close (pipefd[1]);
  if (pid < 0 || read (pipefd[0], &mean, sizeof mean) != sizeof mean)
    mean = -1;
  close (pipefd[0]);
  int status;
  if (pid > 0 && (waitpid (pid, &status, 0) != pid || status != 0))
    mean = -1;
  return mean;
}

static double
time_calls (enum call c, int iterations)
{
  return c >= MAP_EXEC_CLEAR ? time_in_child (c, iterations)
                             : time_here (c, iterations);
}

/* Whether a call of kind C makes an allowed or denied check.  */
static int
makes_check (enum call c)
{
  return c == ALLOWED_CHECK || c == DENIED_CHECK || c == FILES_CHECK
         || c == CHECK_AFTER_MAPPING_CHANGE;
}

/* Open the libraries checked in turn, each of which must be allowed.  */
static int
open_files_in_turn (void)
{
  char name[128];
  for (int i = 0; i < FILES_IN_TURN; i++)
    {
      snprintf (name, sizeof name, LIBRARIES, i);
      files_fd[i] = open (name, O_RDONLY | O_CLOEXEC);
      if (files_fd[i] < 0 || check (files_fd[i]) != 0)
        {
          printf ("error: %s: cannot open it or its check fails: %m\n",
                  name);
          return -1;
        }
    }
  return 0;
}

/* The files and the answers the benchmark relies on.  */
static int
set_up (void)
{
  if (make_directory ("/var/lib/checkexec", 0755) != 0
      || copy_file (ALLOWED, DENIED, 0644) != 0)
    return -1;
  allowed_fd = open (ALLOWED, O_RDONLY | O_CLOEXEC);
  denied_fd = open (DENIED, O_RDONLY | O_CLOEXEC);
  if (allowed_fd < 0 || denied_fd < 0 || check (allowed_fd) != 0
      || check (denied_fd) == 0 || errno != EACCES)
    {
      printf ("error: the allowed check must succeed and the denied one"
              " fail with EACCES\n");
      return -1;
    }
  return open_files_in_turn ();
}

int
bench_per_call (FILE *out, const struct bench_options *options)
{
  double samples[CALLS][MAX_ROUNDS], ratio[CALLS];
  int rounds = part_rounds (options->rounds, MAX_ROUNDS);
  if (set_up () != 0)
    return -1;
  /* About 0.05 s per call kind and round under TCG, interleaved, each round
     in another order, after a warm-up round (see WARM_UP).  */
  for (int r = WARM_UP; r < rounds; r++)
    for (int i = 0; i < CALLS; i++)
      {
        enum call c = (r + CALLS + i) % CALLS;
        double sample = time_calls (c, makes_check (c) ? 2500 : 10000);
        if (r >= 0)
          samples[c][r] = sample;
        if (sample < 0)
          {
            printf ("error: %s failed\n", call_names[c]);
            return -1;
          }
      }
  for (int c = 0; c < CALLS; c++)
    ratio[c] = median_ratio (samples[c], samples[FACCESSAT], rounds);
  for (int c = 0; c < CALLS; c++)
    fprintf (out,
             "part=call\trounds=%d\tcall=%s\tns=%.0f\tratio=%.3f"
             "\tspread=%.4f\n",
             rounds, call_names[c], median (samples[c], rounds), ratio[c],
             spread (samples[c], rounds));
  close (allowed_fd);
  close (denied_fd);
  for (int i = 0; i < FILES_IN_TURN; i++)
    close (files_fd[i]);
  unlink (DENIED);
  return 0;
}
