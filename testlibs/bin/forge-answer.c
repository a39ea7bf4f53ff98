/* Run a program under a seccomp filter that answers for the kernel, as
   any sandboxing tool that applies a user's filter can (systemd's
   SystemCallErrorNumber=, bwrap --seccomp, ...):
     forge-answer securebits ERRNO PROGRAM [ARG...]
         PR_GET_SECUREBITS fails with ERRNO
     forge-answer check ERRNO PROGRAM [ARG...]
         execveat with AT_EXECVE_CHECK fails with ERRNO
   ERRNO is a number or one of EPERM, EACCES, EINVAL, ENOSYS.  The
   project's ld.so must fail closed under both.  An ERRNO of 0 forges
   success: the call returns 0 without reaching the kernel (the bits read
   as clear, every file "allowed"), which no program can tell from the
   truth; the kernel (Exec Restrict) then refuses the mapping.  */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seccomp.h"

static int
parse_errno (const char *text)
{
  static const struct
  {
    const char *name;
    int value;
  } names[] = {
    { "EPERM", EPERM }, { "EACCES", EACCES },
    { "EINVAL", EINVAL }, { "ENOSYS", ENOSYS },
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp (text, names[i].name) == 0)
      return names[i].value;
  char *end;
  long value = strtol (text, &end, 10);
  return *text != '\0' && *end == '\0' && value >= 0 && value < 4096
             ? (int) value
             : -1;
}

static int
usage (void)
{
  fprintf (stderr, "usage: forge-answer securebits|check ERRNO PROGRAM"
                   " [ARG...]\n");
  return 2;
}

int
main (int argc, char **argv)
{
  if (argc < 4)
    return usage ();
  int error = parse_errno (argv[2]);
  if (error < 0)
    {
      fprintf (stderr, "forge-answer: not an errno value: %s\n", argv[2]);
      return 2;
    }
  int rc;
  if (strcmp (argv[1], "securebits") == 0)
    rc = forge_securebits_error (error);
  else if (strcmp (argv[1], "check") == 0)
    rc = forge_check_error (error);
  else
    return usage ();
  if (rc != 0)
    return 1;
  execvp (argv[3], argv + 3);
  fprintf (stderr, "forge-answer: %s: %s\n", argv[3], strerror (errno));
  return 127;
}
