/* Part 4 of the benchmark: allowed checks made at once by two workers.
   A check holds its process's cred_guard_mutex from prepare_bprm_creds()
   to the end, as execve does, so two threads of one process take turns
   while two processes do not.  Each configuration is timed as checks per
   second of all its workers together and compared with one worker, in the
   same round; faccessat(X_OK), which takes no such lock, is the control.
   Two workers only: the guest has two CPUs.  */
#include "bench.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec-check.h"
#include "timing.h"

#define CHECKED "/usr/lib/checkexec/bin/loadcase"
#define MAX_ROUNDS 11
#define CALLS_PER_WORKER 4000
#define WORKERS 2

enum shape { ONE_WORKER, THREADS, PROCESSES, SHAPES };
static const char *const shape_names[SHAPES] = {
  "1 thread", "2 threads of one process", "2 processes",
};

struct worker
{
  bool use_check; /* else faccessat */
  int fd;
  pthread_barrier_t *start;
  int failed;
};

/* CALLS_PER_WORKER calls; how many did not give the allowed answer.  */
static int
run_calls (bool use_check, int fd)
{
  int failed = 0;
  for (int i = 0; i < CALLS_PER_WORKER; i++)
    failed += (use_check ? exec_check_fd (fd)
                         : faccessat (AT_FDCWD, CHECKED, X_OK, 0))
              != 0;
  return failed;
}

static void *
thread_worker (void *arg)
{
  struct worker *w = arg;
  pthread_barrier_wait (w->start);
  w->failed = run_calls (w->use_check, w->fd);
  return NULL;
}

/* The calls per second of COUNT threads started together; -1 on error.  */
static double
time_threads (bool use_check, int fd, int count)
{
  pthread_t threads[WORKERS];
  struct worker workers[WORKERS];
  pthread_barrier_t start;
  int started = 0, failed = 0;
  if (pthread_barrier_init (&start, NULL, count + 1) != 0)
    return -1;
  for (; started < count; started++)
    {
      workers[started] = (struct worker) { use_check, fd, &start, 0 };
      if (pthread_create (&threads[started], NULL, thread_worker,
                          &workers[started])
          != 0)
        break;
    }
  if (started < count)
    {
      /* The barrier can never open: nothing useful to wait for.  */
      printf ("error: pthread_create failed\n");
      _exit (1);
    }
  pthread_barrier_wait (&start);
  double begin = now_ns ();
  for (int i = 0; i < count; i++)
    {
      pthread_join (threads[i], NULL);
      failed += workers[i].failed;
    }
  double elapsed = now_ns () - begin;
  pthread_barrier_destroy (&start);
  return failed != 0 ? -1 : count * CALLS_PER_WORKER / (elapsed / 1e9);
}

/* The calls per second of WORKERS processes released together by a byte
   on a pipe; -1 on error.  */
static double
time_processes (bool use_check, int fd)
{
  int go[2];
  pid_t pids[WORKERS];
  bool ok = true;
  if (pipe (go) != 0)
    return -1;
  fflush (stdout);
  for (int i = 0; i < WORKERS; i++)
    {
      pids[i] = fork ();
      if (pids[i] == 0)
        {
          char byte;
          close (go[1]);
          if (read (go[0], &byte, 1) != 1)
            _exit (2);
          _exit (run_calls (use_check, fd) == 0 ? 0 : 1);
        }
      ok = ok && pids[i] > 0;
    }
  close (go[0]);
  double begin = now_ns ();
  ok = write (go[1], "gg", WORKERS) == WORKERS && ok;
  close (go[1]);
  for (int i = 0; i < WORKERS; i++)
    {
      int status;
      ok = pids[i] > 0 && waitpid (pids[i], &status, 0) == pids[i]
           && WIFEXITED (status) && WEXITSTATUS (status) == 0 && ok;
    }
  double elapsed = now_ns () - begin;
  return ok ? WORKERS * CALLS_PER_WORKER / (elapsed / 1e9) : -1;
}

static double
time_shape (enum shape s, bool use_check, int fd)
{
  switch (s)
    {
    case ONE_WORKER:
      return time_threads (use_check, fd, 1);
    case THREADS:
      return time_threads (use_check, fd, WORKERS);
    default:
      return time_processes (use_check, fd);
    }
}

/* One record per shape: the calls per second of checks and of faccessat,
   and their speed-up over one worker.  */
static void
print_table (FILE *out, double samples[2][SHAPES][MAX_ROUNDS], int rounds)
{
  for (int s = 0; s < SHAPES; s++)
    {
      double up_check = median_ratio (samples[1][s], samples[1][ONE_WORKER],
                                      rounds);
      double up_access = median_ratio (samples[0][s],
                                       samples[0][ONE_WORKER], rounds);
      fprintf (out,
               "part=workers\trounds=%d\tworkers=%s\tchecks_per_s=%.0f"
               "\tchecks_speed_up=%.2f\tfaccessat_per_s=%.0f"
               "\tfaccessat_speed_up=%.2f\n",
               rounds, shape_names[s], median (samples[1][s], rounds),
               up_check, median (samples[0][s], rounds), up_access);
    }
}

int
bench_concurrent (FILE *out, const struct bench_options *options)
{
  double samples[2][SHAPES][MAX_ROUNDS];
  int rounds = part_rounds (options->rounds, MAX_ROUNDS);
  int fd = open (CHECKED, O_RDONLY | O_CLOEXEC);
  if (fd < 0 || exec_check_fd (fd) != 0)
    {
      printf ("error: the check of %s must pass\n", CHECKED);
      return -1;
    }
  for (int r = 0; r < rounds; r++)
    for (int i = 0; i < 2 * SHAPES; i++)
      {
        /* Each round in another order.  */
        int k = (r + i) % (2 * SHAPES);
        bool use_check = k % 2;
        enum shape s = k / 2;
        samples[use_check][s][r] = time_shape (s, use_check, fd);
        if (samples[use_check][s][r] < 0)
          {
            printf ("error: %s of %s, %s, failed\n",
                    use_check ? "a check" : "faccessat", CHECKED,
                    shape_names[s]);
            close (fd);
            return -1;
          }
      }
  close (fd);
  print_table (out, samples, rounds);
  return 0;
}
