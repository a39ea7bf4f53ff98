/* What a program confined by an AppArmor profile is told about a file
   (test-apparmor-profiles copies it to the path its profile attaches to).
     confined-probe check FILE    execveat (AT_EXECVE_CHECK) of FILE,
                                  opened for reading first (as ld.so does)
     confined-probe check-name FILE  the same check of FILE by its name,
                                  without the open (and its r permission)
     confined-probe execve FILE   a real execve of FILE
   Prints "check FILE: passed" or "check FILE: <error>" (execve likewise;
   a successful execve prints nothing of its own).  Exit status 0 when the
   check passed or the execve happened.  */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "exec-check.h"

static int
report (const char *what, const char *file, int error)
{
  printf ("%s %s: %s\n", what, file, error == 0 ? "passed" : strerror (error));
  return error == 0 ? 0 : 1;
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: confined-probe check|execve FILE\n");
      return 2;
    }
  const char *file = argv[2];
  if (strcmp (argv[1], "check") == 0)
    return report ("check", file, exec_check_path (file));
  if (strcmp (argv[1], "check-name") == 0)
    return report ("check", file, exec_check_by_name (file));
  if (strcmp (argv[1], "execve") == 0)
    {
      char *const exec_argv[] = { (char *) file, NULL };
      char *const envp[] = { NULL };
      fflush (stdout);
      execve (file, exec_argv, envp);
      return report ("execve", file, errno);
    }
  fprintf (stderr, "confined-probe: unknown action '%s'\n", argv[1]);
  return 2;
}
