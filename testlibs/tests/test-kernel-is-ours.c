/* The running kernel is the one the host just built: uname -r and uname -v
   (which holds the build's time stamp) match what the build recorded.
   Usage: test-kernel-is-ours EXPECTED-DIR  */
#include "expected.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

static int
same (const char *what, const char *running, const char *built)
{
  if (strcmp (running, built) == 0)
    return 1;
  printf ("# %s: running '%s', built '%s'\n", what, running, built);
  return 0;
}

int
main (int argc, char **argv)
{
  char release[256], version[256];
  struct utsname u;
  if (argc != 2)
    {
      fprintf (stderr, "usage: %s EXPECTED-DIR\n", argv[0]);
      return 2;
    }
  if (read_expected (argv[1], "kernel.release", release, sizeof release) != 0
      || read_expected (argv[1], "kernel.version", version, sizeof version) != 0
      || uname (&u) != 0)
    return 1;
  printf ("# kernel %s %s\n", u.release, u.version);
  int ok = same ("release", u.release, release);
  ok &= same ("version", u.version, version);
  return ok ? 0 : 1;
}
