/* Print which kernel, C library and dynamic linker this process runs on.  */
#include "../src/loaded-objects.h"

#include <gnu/libc-version.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/utsname.h>

int
main (void)
{
  struct utsname u;
  char libc_id[128] = "?", ld_id[128] = "?", real[PATH_MAX];
  if (uname (&u) != 0)
    return 1;
  const char *ld = loaded_interpreter ();
  loaded_build_id ("/libc.so.6", libc_id, sizeof libc_id);
  loaded_build_id ("/ld-linux-x86-64.so.2", ld_id, sizeof ld_id);
  printf ("kernel:        %s %s\n", u.release, u.version);
  printf ("glibc:         %s %s\n", gnu_get_libc_version (),
          gnu_get_libc_release ());
  printf ("libc build-id: %s\n", libc_id);
  printf ("ld.so:         %s -> %s\n", ld ? ld : "?",
          ld && realpath (ld, real) ? real : "?");
  printf ("ld.so build-id: %s\n", ld_id);
  return 0;
}
