/* The C library and dynamic linker in use are the ones the host just built:
   the build-ids of the loaded libc.so.6 and ld.so match the build's.
   Usage: test-libc-is-ours EXPECTED-DIR  */
#include "expected.h"
#include "loaded-objects.h"

#include <stdio.h>
#include <string.h>

/* Compare the build-id of the loaded object named *SUFFIX with the one in
   EXPECTED-DIR/FILE.  */
static int
same_build_id (const char *dir, const char *suffix, const char *file)
{
  char built[128], loaded[128];
  if (read_expected (dir, file, built, sizeof built) != 0)
    return 0;
  if (loaded_build_id (suffix, loaded, sizeof loaded) != 0)
    {
      printf ("# no build-id found for a loaded *%s\n", suffix);
      return 0;
    }
  printf ("# %s: loaded %s, built %s\n", suffix, loaded, built);
  return strcmp (loaded, built) == 0;
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: %s EXPECTED-DIR\n", argv[0]);
      return 2;
    }
  int ok = same_build_id (argv[1], "/libc.so.6", "libc.build-id");
  ok &= same_build_id (argv[1], "/ld-linux-x86-64.so.2", "ld.build-id");
  return ok ? 0 : 1;
}
