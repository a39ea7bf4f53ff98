/* Part 5 of the benchmark: what the interpreters' checks cost.  python3.11
   starting a script that imports 50 standard-library modules, dash and
   bash running a script that sources 20 files, and perl starting a script
   that uses 30 standard-library modules, each under four configurations:
   Debian's binary packages, ours built without the series (the build
   alone), ours with the bits clear (clear / unpatched: the series alone)
   and ours enforcing (SECBIT_EXEC_RESTRICT_FILE: the interpreter's checks,
   ld.so's and the kernel's mapping check).  Each build is a whole prefix
   (the interpreter and its library) unpacked from its .debs under
   INTERP_DIR, at paths of the same length, so that the configurations do
   the same work but for what differs between their builds.  The checks of
   an enforcing start-up are counted with strace (part=interp-checks), so
   that the host can give the cost per checked file.  */
#include "bench.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "files.h"
#include "securebits.h"
#include "spawn.h"
#include "timing.h"

#define INTERP_DIR "/var/lib/checkexec/interp"
#define BENCH_DIR "/usr/lib/checkexec/bench"
#define MAX_ROUNDS 51

enum interp_config { DEBIAN, OURS_UNPATCHED, OURS_CLEAR, OURS_ENFORCING,
                     INTERP_CONFIGS };

static const char *const interp_config_names[INTERP_CONFIGS] = {
  "Debian's", "ours, unpatched", "ours, clear", "ours, enforcing",
};

/* The prefix of each configuration below INTERP_DIR (bench.sh stages d, u
   and p: one letter each, so that every path has the same length).  */
static const char *const interp_trees[INTERP_CONFIGS] = { "d", "u", "p", "p" };

struct interp_program
{
  const char *name;
  /* The interpreter, relative to the prefix; its one argument.  */
  const char *interpreter;
  const char *script;
  int rounds;
  /* Whether its samples are batches (struct bench_options).  */
  bool short_start;
};

static const struct interp_program interp_programs[] = {
  { "python3, 50 modules", "usr/bin/python3.11", BENCH_DIR "/import-50.py",
    21, false },
  { "dash, 20 sourced files", "bin/dash", BENCH_DIR "/source-20.sh",
    MAX_ROUNDS, true },
  { "bash, 20 sourced files", "bin/bash", BENCH_DIR "/source-20.sh",
    MAX_ROUNDS, true },
  { "perl, 30 modules", "usr/bin/perl", BENCH_DIR "/use-30.pl", 21, false },
};
#define INTERP_PROGRAMS (sizeof interp_programs / sizeof interp_programs[0])

/* How a child starts: the program, its configuration, and whether it runs
   under strace (standard output then has strace's lines).  */
struct interp_start
{
  const struct interp_program *program;
  enum interp_config c;
  bool traced;
};

static void
start_interpreter (void *arg, int out)
{
  const struct interp_start *start = arg;
  char interpreter[256];
  snprintf (interpreter, sizeof interpreter, INTERP_DIR "/%s/%s",
            interp_trees[start->c], start->program->interpreter);
  const char *plain[] = { interpreter, start->program->script, NULL };
  /* execveat is what a check is; the interpreter is started with execve,
     which strace then does not show.  */
  const char *traced[] = { "/usr/bin/strace", "-f", "-qq", "-e",
                           "trace=execveat", "-e", "signal=none", "-o",
                           "/dev/stdout", interpreter,
                           start->program->script, NULL };
  /* A fixed hash seed: with a random one, dictionaries (python3's, perl's
     hashes) grow differently from one start-up to the next and the
     instruction counts vary.  */
  const char *envp[] = { "PATH=/usr/bin:/bin", "PYTHONHASHSEED=0",
                         "PERL_HASH_SEED=0", "PERL_PERTURB_KEYS=0", NULL };
  if (start->c == OURS_ENFORCING && set_restrict_file () != 0)
    _exit (126);
  int null = open ("/dev/null", O_WRONLY);
  dup2 (start->traced ? out : null, STDOUT_FILENO);
  dup2 (null, STDERR_FILENO);
  close (out);
  const char **argv = start->traced ? traced : plain;
  execve (argv[0], (char **) argv, (char **) envp);
  _exit (127);
}

/* The wall time in ns of one run of PROGRAM under C (with strace's lines
   in OUTPUT if TRACED), or -1 if it did not exit with status 0.  */
static double
interp_run (const struct interp_program *program, enum interp_config c,
            bool traced, char *output, size_t len)
{
  struct interp_start start = { program, c, traced };
  return capture_timed (start_interpreter, &start, traced ? output : NULL,
                        len);
}

/* The mean time of BATCH runs; -1 if one failed.  */
static double
interp_batch (const struct interp_program *program, enum interp_config c,
              int batch)
{
  double sum = 0;
  for (int i = 0; i < batch; i++)
    {
      double one = interp_run (program, c, false, NULL, 0);
      if (one < 0)
        return -1;
      sum += one;
    }
  return sum / batch;
}

/* The checks PROGRAM makes enforcing: the execveat calls strace shows,
   each of which must be a check (AT_EXECVE_CHECK, 0x10000: strace 6.1
   has no name for it); -1 after saying why.  */
static int
count_checks (const struct interp_program *program)
{
  static char output[1 << 16];
  if (interp_run (program, OURS_ENFORCING, true, output, sizeof output) < 0)
    {
      printf ("error: %s failed enforcing under strace\n", program->name);
      return -1;
    }
  int calls = 0, checks = 0;
  for (char *line = strtok (output, "\n"); line != NULL;
       line = strtok (NULL, "\n"))
    if (strstr (line, "execveat(") != NULL)
      {
        calls++;
        checks += strstr (line, "AT_EXECVE_CHECK") != NULL
                  || strstr (line, "0x10000") != NULL;
      }
  if (calls != checks || checks == 0)
    {
      printf ("error: %s made %d execveat calls, %d of them checks\n",
              program->name, calls, checks);
      return -1;
    }
  return checks;
}

/* Unpack the three builds (bench.sh's interpreters.tar in the directory
   SHARE) under INTERP_DIR, on the guest's disk; 0 or -1.  */
static int
stage_interpreters (const char *share)
{
  char archive[4096], output[4096];
  snprintf (archive, sizeof archive, "%s/interpreters.tar", share);
  char *const argv[] = { "/usr/bin/tar", "-xf", archive, "-C", INTERP_DIR,
                         NULL };
  if (make_directory (INTERP_DIR, 0755) != 0
      || run_command (argv, output, sizeof output) != 0)
    {
      printf ("error: cannot unpack %s into " INTERP_DIR ":\n%s\n", archive,
              output);
      return -1;
    }
  return 0;
}

/* Measure PROGRAM under every configuration and print its records.  */
static int
bench_program (FILE *out, const struct interp_program *program,
               const struct bench_options *options)
{
  double samples[INTERP_CONFIGS][MAX_ROUNDS], ratio[INTERP_CONFIGS];
  int rounds = part_rounds (options->rounds, program->rounds);
  int batch = program->short_start ? options->batch : 1;
  /* The warm-up round also writes the bytecode caches of each prefix.  */
  for (int r = WARM_UP; r < rounds; r++)
    for (int i = 0; i < INTERP_CONFIGS; i++)
      {
        enum interp_config c = (r + INTERP_CONFIGS + i) % INTERP_CONFIGS;
        double sample = interp_batch (program, c, batch);
        if (sample < 0)
          {
            printf ("error: %s failed under %s\n", program->name,
                    interp_config_names[c]);
            return -1;
          }
        if (r >= 0)
          samples[c][r] = sample;
      }
  int checks = count_checks (program);
  if (checks < 0)
    return -1;
  for (int c = 0; c < INTERP_CONFIGS; c++)
    ratio[c] = median_ratio (samples[c], samples[DEBIAN], rounds);
  for (int c = 0; c < INTERP_CONFIGS; c++)
    fprintf (out,
             "part=interp\tprogram=%s\trounds=%d\tbatch=%d\tconfig=%s"
             "\tms=%.3f\tratio=%.3f\tspread=%.4f\n",
             program->name, rounds, batch, interp_config_names[c],
             median (samples[c], rounds) / 1e6, ratio[c],
             spread (samples[c], rounds));
  fprintf (out,
           "part=interp-pairs\tprogram=%s\tclear_over_ours=%.3f"
           "\tenforcing_over_clear=%.3f\n",
           program->name,
           median_ratio (samples[OURS_CLEAR], samples[OURS_UNPATCHED], rounds),
           median_ratio (samples[OURS_ENFORCING], samples[OURS_CLEAR],
                         rounds));
  fprintf (out, "part=interp-checks\tprogram=%s\tchecks=%d\n", program->name,
           checks);
  return 0;
}

int
bench_interpreters (FILE *out, const struct bench_options *options)
{
  if (stage_interpreters (options->share) != 0)
    return -1;
  for (size_t p = 0; p < INTERP_PROGRAMS; p++)
    if (bench_program (out, &interp_programs[p], options) != 0)
      return -1;
  return 0;
}
