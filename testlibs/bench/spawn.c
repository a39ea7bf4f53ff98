/* Starting a program under one of the benchmark's ld.so configurations:
   Debian's own ld.so and libc (shared from the host for this), the project's
   build of the same source without the patch (tells the patch from the
   build), or the project's with the executability securebits clear, set,
   or the audit tunable.  All run the program explicitly (ld.so PROGRAM)
   with their own library directory first, so they do the same work apart
   from the check.  */
#include "spawn.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "files.h"
#include "securebits.h"
#include "timing.h"

#define STOCK_DIR "/var/lib/checkexec/stock"
#define UNPATCHED_DIR "/var/lib/checkexec/unpatched"
#define SYSTEM_DIR "/usr/lib/x86_64-linux-gnu"
#define LDSO "ld-linux-x86-64.so.2"

const char *const config_names[CONFIGS] = {
  "stock ld.so", "ours, unpatched", "patched, clear", "patched, enforcing",
  "patched, audit", "ld.so-only enforcing",
};

/* The glibc.rtld.exec_check tunable of configuration C, if any.  */
static const char *
tunables (enum config c)
{
  return c == AUDIT               ? "GLIBC_TUNABLES=glibc.rtld.exec_check=1"
         : c == TUNABLE_ENFORCING ? "GLIBC_TUNABLES=glibc.rtld.exec_check=2"
                                  : NULL;
}

/* The library directory of configuration C; its ld.so is LDSO in it.  */
static const char *
library_dir (enum config c)
{
  return c == STOCK ? STOCK_DIR : c == UNPATCHED ? UNPATCHED_DIR : SYSTEM_DIR;
}

int
stage_libraries (const char *share)
{
  char stock[4096], unpatched[4096];
  snprintf (stock, sizeof stock, "%s/stock", share);
  snprintf (unpatched, sizeof unpatched, "%s/unpatched", share);
  if (make_directory ("/var/lib/checkexec", 0755) != 0
      || copy_directory (stock, STOCK_DIR, 0755) != 0
      || copy_directory (unpatched, UNPATCHED_DIR, 0755) != 0)
    {
      printf ("error: cannot copy the C libraries of %s to the disk\n", share);
      return -1;
    }
  return 0;
}

/* How the child starts: configuration C, the command ARGS, and whether its
   standard output is wanted.  */
struct start
{
  enum config c;
  const char *const *args;
  bool want_output;
};

/* In the child: run the command of START (ARG) under its configuration,
   standard output into OUT if wanted, else (and standard error always)
   into /dev/null.  */
static void
start_child (void *arg, int out)
{
  const struct start *start = arg;
  enum config c = start->c;
  const char *argv[16];
  char ldso[256];
  int n = 0;
  snprintf (ldso, sizeof ldso, "%s/" LDSO, library_dir (c));
  argv[n++] = ldso;
  argv[n++] = "--library-path";
  argv[n++] = library_dir (c);
  for (int i = 0; start->args[i] != NULL && n < 15; i++)
    argv[n++] = start->args[i];
  argv[n] = NULL;
  const char *envp[] = { "PATH=/usr/bin:/bin", tunables (c), NULL };
  if (c == ENFORCING && set_restrict_file () != 0)
    _exit (126);
  int null = open ("/dev/null", O_WRONLY);
  dup2 (start->want_output ? out : null, STDOUT_FILENO);
  dup2 (null, STDERR_FILENO);
  close (out);
  execve (argv[0], (char **) argv, (char **) envp);
  _exit (127);
}

double
capture_timed (capture_child child, void *arg, char *output, size_t len)
{
  char ignored[1];
  int status;
  double begin = now_ns ();
  if (spawn_capture (child, arg, 0, output ? output : ignored,
                     output ? len : sizeof ignored, &status)
      != 0)
    return -1;
  double elapsed = now_ns () - begin;
  return WIFEXITED (status) && WEXITSTATUS (status) == 0 ? elapsed : -1;
}

double
spawn_timed (enum config c, const char *const *args, char *output, size_t len)
{
  struct start start = { c, args, output != NULL };
  return capture_timed (start_child, &start, output, len);
}
