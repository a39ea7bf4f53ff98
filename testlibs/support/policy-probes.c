/* What the LSM policy tests ask of the system.  */
#include "policy-probes.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command.h"

#define LOADCASE "/usr/lib/checkexec/bin/loadcase"

bool
command_works (const char *const argv[])
{
  char output[8192];
  int status = run_command ((char *const *) argv, output, sizeof output);
  printf ("# %s %s: status %d\n", argv[0], argv[1], status);
  print_comment (output);
  return status == 0;
}

int
execution_error (const char *path, const char *arg)
{
  pid_t child = fork ();
  if (child == 0)
    {
      char *const argv[] = { (char *) path, (char *) arg, NULL };
      char *const envp[] = { NULL };
      execve (path, argv, envp);
      _exit (errno == 0 || errno > 125 ? 126 : errno);
    }
  int status;
  if (child < 0 || waitpid (child, &status, 0) != child
      || !WIFEXITED (status))
    return -1;
  if (WEXITSTATUS (status) == EACCES)
    return EACCES;
  return WEXITSTATUS (status) == 0 ? 0 : -1;
}

bool
dlopen_works (const char *library, bool restrict_file)
{
  char output[4096];
  const char *plain[] = { LOADCASE, "dlopen", library, NULL };
  const char *restricted[] = { "/usr/bin/set-exec", "-f", "--", LOADCASE,
                               "dlopen", library, NULL };
  const char *const *argv = restrict_file ? restricted : plain;
  int status = run_command ((char *const *) argv, output, sizeof output);
  printf ("# %sdlopen %s: status %d\n", restrict_file ? "[bit] " : "",
          library, status);
  print_comment (output);
  return status == 0 && strstr (output, ": loaded") != NULL;
}
