/* Starting a program under one of the benchmark's ld.so configurations:
   Debian's own ld.so and libc (kept in the image for this), or the
   project's with the executability securebits clear, set, or the audit
   tunable.  Both run the program explicitly (ld.so PROGRAM) with their own
   library directory first, so they do the same work apart from the
   check.  */
#include "spawn.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../src/securebits.h"
#include "timing.h"

#define STOCK_DIR "/usr/lib/checkexec/stock"

const char *const config_names[CONFIGS] = {
  "stock ld.so", "patched, clear", "patched, enforcing", "patched, audit",
};

static _Noreturn void
start_child (enum config c, const char *const *args, int out)
{
  const char *argv[16];
  int n = 0;
  argv[n++] = c == STOCK ? STOCK_DIR "/ld-linux-x86-64.so.2"
                         : "/lib64/ld-linux-x86-64.so.2";
  argv[n++] = "--library-path";
  argv[n++] = c == STOCK ? STOCK_DIR : "/usr/lib/x86_64-linux-gnu";
  for (int i = 0; args[i] != NULL && n < 15; i++)
    argv[n++] = args[i];
  argv[n] = NULL;
  const char *envp[] = { "PATH=/usr/bin:/bin",
                         c == AUDIT ? "GLIBC_TUNABLES=glibc.rtld.exec_check=1"
                                    : NULL,
                         NULL };
  long bits = prctl (PR_GET_SECUREBITS);
  if (c == ENFORCING
      && prctl (PR_SET_SECUREBITS, bits | SECBIT_EXEC_RESTRICT_FILE) != 0)
    _exit (126);
  int null = open ("/dev/null", O_WRONLY);
  dup2 (out >= 0 ? out : null, STDOUT_FILENO);
  dup2 (null, STDERR_FILENO);
  execve (argv[0], (char **) argv, (char **) envp);
  _exit (127);
}

double
spawn_timed (enum config c, const char *const *args, char *output, size_t len)
{
  int fds[2] = { -1, -1 };
  if (output != NULL && pipe (fds) != 0)
    return -1;
  double start = now_ns ();
  pid_t pid = fork ();
  if (pid == 0)
    {
      if (fds[0] >= 0)
        close (fds[0]);
      start_child (c, args, fds[1]);
    }
  size_t used = 0;
  if (fds[1] >= 0)
    {
      close (fds[1]);
      ssize_t n;
      while ((n = read (fds[0], output + used, len - 1 - used)) > 0)
        used += n;
      output[used] = '\0';
      close (fds[0]);
    }
  int status;
  if (pid < 0 || waitpid (pid, &status, 0) != pid)
    return -1;
  double elapsed = now_ns () - start;
  return WIFEXITED (status) && WEXITSTATUS (status) == 0 ? elapsed : -1;
}
