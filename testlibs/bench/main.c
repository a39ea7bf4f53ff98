/* make bench's in-guest benchmark: measures the four parts (one call of
   each kind; program start-up; dlopen + dlclose; two workers at once),
   prints their results as records (see bench.h) and writes them to FILE.
   SHARE is a directory with Debian's stock C libraries (stock/) and the
   project's build of glibc without the patch (unpatched/:
   ld-linux-x86-64.so.2 and libc.so.6).  Run as root.
   Usage: checkexec-bench FILE SHARE  */
#include <stdio.h>
#include <stdlib.h>
#include <sys/utsname.h>

#include "bench.h"
#include "spawn.h"

int
main (int argc, char **argv)
{
  char *text = NULL;
  size_t len = 0;
  struct utsname u;
  if (argc != 3 || uname (&u) != 0)
    {
      fprintf (stderr, "usage: checkexec-bench FILE SHARE\n");
      return 2;
    }
  if (stage_libraries (argv[2]) != 0)
    return 1;
  FILE *out = open_memstream (&text, &len);
  if (out == NULL)
    return 1;
  fprintf (out, "part=kernel\trelease=%s\tversion=%s\n", u.release,
           u.version);
  int rc = bench_per_call (out) | bench_startup (out) | bench_dlopen (out)
           | bench_concurrent (out);
  fclose (out);
  fputs (text, stdout);
  FILE *file = fopen (argv[1], "w");
  if (file == NULL || fputs (text, file) < 0 || fclose (file) != 0)
    {
      perror (argv[1]);
      rc = -1;
    }
  free (text);
  return rc == 0 ? 0 : 1;
}
