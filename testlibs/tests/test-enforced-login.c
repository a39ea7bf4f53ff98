/* The test user's login session runs with SECBIT_EXEC_RESTRICT_FILE set
   and locked (its processes cannot clear it) and refuses a 0644 library
   from LD_PRELOAD; a unit the user starts in their systemd user manager
   (which the login starts, not the login shell) runs enforced too, or not
   at all (Debian 12's systemd resets the securebits of every unit it
   starts, which the locked bits refuse: it then fails with
   213/SECUREBITS); no process of the login maps memory writable and
   executable (set-exec -m); a service started the documented way
   (ExecStart through set-exec -f -l) is enforced too; root's session
   (this program's) is not enforced.  The securebits are read from
   outside, as an administrator would: the SecBits line of
   /proc/PID/status (linux/0011), not by asking the process.
   Run as root.  Usage: test-enforced-login [EXPECTED-DIR] (unused)  */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "files.h"
#include "securebits.h"

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

/* The securebits of process PID from its /proc/PID/status, or -1.  */
static long
secbits_of (long pid)
{
  long bits = secbits_of_process (pid);
  printf ("# /proc/%ld/status: SecBits %lx\n", pid, bits);
  return bits;
}

/* The number after TEXT in OUTPUT (0 if none).  */
static long
number_after (const char *output, const char *text)
{
  const char *at = strstr (output, text);
  return at != NULL ? strtol (at + strlen (text), NULL, 10) : 0;
}

/* Whether process PID (0: none) runs with the bit set and locked.  */
static bool
enforced_and_locked (long pid)
{
  const long wanted = SECBIT_EXEC_RESTRICT_FILE
                      | SECBIT_EXEC_RESTRICT_FILE_LOCKED;
  long bits = pid > 0 ? secbits_of (pid) : -1;
  return bits >= 0 && (bits & wanted) == wanted;
}

int
main (void)
{
  char output[8192];
  int ok = 1;
  long bits = secbits_of (getpid ());
  if (bits < 0 || (bits & SECBIT_EXEC_RESTRICT_FILE) != 0)
    {
      printf ("# root's session is enforced: securebits %#lx\n", bits);
      ok = 0;
    }
  in_login_session ("/usr/lib/checkexec/bin/loadcase unlock", output,
                    sizeof output);
  if (strstr (output, "unlock: refused") == NULL)
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
  /* A unit of the test user's own, in the user manager of the login: it
     runs (its bits are read while it sleeps) or fails with 213.  */
  in_login_session (
      "mkdir -p ~/.config/systemd/user && printf '[Service]\\n"
      "ExecStart=/bin/sleep 120\\n'"
      " >~/.config/systemd/user/checkexec-probe.service"
      " && systemctl --user daemon-reload"
      " && systemctl --user start checkexec-probe; sleep 2;"
      " echo state=$(systemctl --user show -p ActiveState --value"
      " checkexec-probe) pid=$(systemctl --user show -p MainPID --value"
      " checkexec-probe) exec-status=$(systemctl --user show -p"
      " ExecMainStatus --value checkexec-probe)",
      output, sizeof output);
  bool running = strstr (output, "state=active") != NULL;
  bool ran_enforced = running
                      && enforced_and_locked (number_after (output, "pid="));
  bool refused = !running && number_after (output, "exec-status=") == 213;
  if (!ran_enforced && !refused)
    ok = 0;
  in_login_session ("systemctl --user stop checkexec-probe", output,
                    sizeof output);
  /* A service, started as docs/guest.md says to.  */
  char *const service[] = { "/usr/bin/systemd-run", "--quiet",
                            "--unit=checkexec-probe-service",
                            "/usr/bin/set-exec", "-f", "-l", "--",
                            "/bin/sleep", "120", NULL };
  char *const main_pid[] = { "/usr/bin/systemctl", "show", "-p", "MainPID",
                             "checkexec-probe-service", NULL };
  char *const stop[] = { "/usr/bin/systemctl", "stop",
                         "checkexec-probe-service", NULL };
  int status = run_command (service, output, sizeof output);
  printf ("# a service through set-exec -f -l: status %d\n", status);
  sleep (1);
  if (status != 0 || run_command (main_pid, output, sizeof output) != 0
      || !enforced_and_locked (number_after (output, "MainPID=")))
    ok = 0;
  run_command (stop, output, sizeof output);
  return ok ? 0 : 1;
}
