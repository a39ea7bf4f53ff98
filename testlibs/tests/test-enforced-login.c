/* The test user's login session runs with SECBIT_EXEC_RESTRICT_FILE set
   and locked (its processes cannot clear it) and refuses a 0644 library
   from LD_PRELOAD; a unit the user starts in their systemd user manager
   (which the login starts, not the login shell) runs enforced too, or not
   at all (Debian 12's systemd resets the securebits of every unit it
   starts, which the locked bits refuse: it then fails with
   213/SECUREBITS); no process of the login maps memory writable and
   executable (set-exec -m); a service started the documented way
   (ExecStart through set-exec -f -l) is enforced too; root's session
   (this program's) is not enforced.
   Run as root.  Usage: test-enforced-login [EXPECTED-DIR] (unused)  */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include "../src/command.h"
#include "../src/files.h"
#include "../src/securebits.h"

/* Run COMMAND in a login shell of the test user.  */
static int
in_login_session (const char *command, char *output, size_t len)
{
  char *const argv[] = { "/usr/bin/su", "-", "tester", "-c", (char *) command,
                         NULL };
  int status = run_command (argv, output, len);
  printf ("# su - tester -c '%s': status %d\n", command, status);
  print_comment (output);
  return status;
}

int
main (void)
{
  char output[8192];
  int ok = 1;
  long bits = prctl (PR_GET_SECUREBITS);
  if (bits < 0 || (bits & SECBIT_EXEC_RESTRICT_FILE) != 0)
    {
      printf ("# root's session is enforced: securebits %#lx\n", bits);
      ok = 0;
    }
  in_login_session ("/usr/lib/checkexec/bin/loadcase unlock;"
                    " /usr/lib/checkexec/bin/loadcase securebits", output,
                    sizeof output);
  if (strstr (output, "unlock: refused") == NULL
      || strstr (output, "restrict_file=1 locked=1") == NULL)
    ok = 0;
  /* The same seen from outside: grep reads the login shell's status.  */
  in_login_session ("grep SecBits /proc/$$/status", output, sizeof output);
  if (strstr (output, "SecBits:\t00000300") == NULL)
    ok = 0;
  /* No write-execute memory (PR_SET_MDWE): the mmap fails with EACCES.  */
  if (in_login_session ("python3 -c 'import mmap; mmap.mmap(-1, 4096,"
                        " prot=mmap.PROT_READ | mmap.PROT_WRITE"
                        " | mmap.PROT_EXEC)'", output, sizeof output)
          == 0
      || strstr (output, "Errno 13") == NULL)
    ok = 0;
  /* A library the kernel would not execute: 0644, on the root file
     system (where only root can put it).  */
  if (make_directory ("/var/lib/checkexec", 0755) != 0
      || copy_file ("/usr/lib/checkexec/payload/libcheckexec-mark.so",
                    "/var/lib/checkexec/mark-0644.so", 0644) != 0
      || in_login_session ("LD_PRELOAD=/var/lib/checkexec/mark-0644.so"
                           " /usr/lib/checkexec/bin/loadcase report",
                           output, sizeof output) != 0
      || strstr (output, "not allowed by the system policy") == NULL)
    ok = 0;
  /* A unit of the test user's own, in the user manager of the login.  */
  int started = in_login_session (
      "mkdir -p ~/.config/systemd/user && printf '[Service]\\nType=oneshot"
      "\\nStandardOutput=file:/tmp/checkexec-unit.out\\nExecStart=/usr/lib/"
      "checkexec/bin/loadcase securebits\\n'"
      " >~/.config/systemd/user/checkexec-probe.service"
      " && systemctl --user daemon-reload"
      " && systemctl --user start checkexec-probe; status=$?;"
      " echo unit output:; cat /tmp/checkexec-unit.out;"
      " systemctl --user show -p ExecMainStatus checkexec-probe; exit $status",
      output, sizeof output);
  bool ran_enforced = started == 0
                      && strstr (output, "restrict_file=1 locked=1") != NULL;
  bool refused = started != 0 && strstr (output, "ExecMainStatus=213") != NULL
                 && strstr (output, "restrict_file=") == NULL;
  if (!ran_enforced && !refused)
    ok = 0;
  /* A service, as the README says to start one.  */
  char *const service[] = { "/usr/bin/systemd-run", "--quiet", "--wait",
                            "--pipe", "/usr/bin/set-exec", "-f", "-l", "--",
                            "/usr/lib/checkexec/bin/loadcase", "securebits",
                            NULL };
  int status = run_command (service, output, sizeof output);
  printf ("# a service through set-exec -f -l: status %d\n", status);
  print_comment (output);
  if (status != 0 || strstr (output, "restrict_file=1 locked=1") == NULL)
    ok = 0;
  return ok ? 0 : 1;
}
