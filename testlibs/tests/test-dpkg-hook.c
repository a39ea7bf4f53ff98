/* A package installed after the image was built keeps its shared objects
   executable: installs a test package whose library is 0644 in the .deb,
   checks the installed mode, removes the package.  Run as root.
   Usage: test-dpkg-hook [EXPECTED-DIR] (unused)  */
#include <stdio.h>
#include <sys/stat.h>

#include "command.h"

#define DEB "/usr/lib/checkexec/payload/checkexec-dpkg-probe.deb"
#define LIBRARY "/usr/lib/x86_64-linux-gnu/libcheckexec-dpkg-probe.so"

int
main (void)
{
  char output[8192];
  char *const install[] = { "/usr/bin/dpkg", "-i", DEB, NULL };
  char *const purge[] = { "/usr/bin/dpkg", "--purge", "checkexec-dpkg-probe",
                          NULL };
  int ok = 0;
  if (run_command (install, output, sizeof output) != 0)
    {
      printf ("# dpkg -i %s failed:\n", DEB);
      print_comment (output);
      return 1;
    }
  struct stat st;
  if (stat (LIBRARY, &st) != 0)
    printf ("# %s was not installed: %m\n", LIBRARY);
  else
    {
      printf ("# installed mode: %04o\n", (unsigned) st.st_mode & 07777);
      ok = (st.st_mode & 0111) == 0111;
    }
  if (run_command (purge, output, sizeof output) != 0)
    {
      printf ("# dpkg --purge failed:\n");
      print_comment (output);
      ok = 0;
    }
  return ok ? 0 : 1;
}
