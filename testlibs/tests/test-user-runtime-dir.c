/* A user's runtime directory (/run/user/UID, writable by that user) is
   mounted noexec.  Starts the test user's runtime directory service and
   looks.  Run as root.  Usage: test-user-runtime-dir [EXPECTED-DIR]  */
#include <stdio.h>
#include <sys/statvfs.h>

#include "../src/command.h"

int
main (void)
{
  char output[4096];
  char *const start[] = { "/usr/bin/systemctl", "start",
                          "user-runtime-dir@1000.service", NULL };
  char *const stop[] = { "/usr/bin/systemctl", "stop",
                         "user-runtime-dir@1000.service", NULL };
  if (run_command (start, output, sizeof output) != 0)
    {
      printf ("# systemctl start user-runtime-dir@1000 failed:\n");
      print_comment (output);
      return 1;
    }
  struct statvfs sv;
  int ok = statvfs ("/run/user/1000", &sv) == 0
           && (sv.f_flag & ST_NOEXEC) != 0;
  if (!ok)
    printf ("# /run/user/1000 is missing or not noexec\n");
  run_command (stop, output, sizeof output);
  return ok ? 0 : 1;
}
