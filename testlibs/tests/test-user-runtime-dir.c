/* A user's runtime directory (/run/user/UID, writable by that user) is
   noexec from the moment it exists: while the test user's runtime
   directory service starts, a process of that user (enforced, started
   before, as one outside a session would be) tries without pause to
   create a file there and map it shared and executable.  Such a mapping
   would outlive a later remount and let the user write any code into
   it.  Once started, the directory must be noexec, the user's and
   closed to others.  Run as root; TAP.  */
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "command.h"
#include "securebits.h"
#include "tap.h"

#define USER_UID 1000
#define USER_GID 1000
#define RUNTIME_DIR "/run/user/1000"
#define PROBE RUNTIME_DIR "/.exec-probe"
/* Starts of the service: the window, if there is one, lasts milliseconds
   and the racer won it in the first start when it was there.  */
#define STARTS 3

static bool
service (const char *verb)
{
  char output[4096];
  char *const argv[] = { "/usr/bin/systemctl", (char *) verb,
                         "user-runtime-dir@1000.service", NULL };
  if (run_command (argv, output, sizeof output) == 0)
    return true;
  printf ("# systemctl %s user-runtime-dir@1000 failed:\n", verb);
  print_comment (output);
  return false;
}

/* One attempt of the racer: 1 if it mapped PROBE executable.  */
static int
try_exec_mapping (void)
{
  int fd = open (PROBE, O_RDWR | O_CREAT | O_CLOEXEC, 0700);
  if (fd < 0)
    return 0;
  int won = 0;
  if (fchmod (fd, 0700) == 0 && ftruncate (fd, 4096) == 0)
    {
      void *map = mmap (NULL, 4096, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
      if (map != MAP_FAILED)
        won = 1;
    }
  close (fd);
  return won;
}

/* The racer, in a child: the test user with SECBIT_EXEC_RESTRICT_FILE.
   Writes 'R' to REPORT when it starts trying, 'W' if it wins, then
   exits; otherwise tries until it is killed.  */
_Noreturn static void
race (int report)
{
  if (setgroups (0, NULL) != 0
      || setresgid (USER_GID, USER_GID, USER_GID) != 0
      || setresuid (USER_UID, USER_UID, USER_UID) != 0
      || set_restrict_file () != 0)
    _exit (2);
  if (write (report, "R", 1) != 1)
    _exit (2);
  for (;;)
    if (try_exec_mapping ())
      {
        if (write (report, "W", 1) != 1)
          _exit (2);
        _exit (0);
      }
}

/* Start the service once while the racer runs; returns the racer's
   report: 'W' (it won), 'N' (it did not), 'E' (the test failed).  */
static char
start_against_racer (void)
{
  int report[2];
  if (pipe (report) != 0)
    return 'E';
  pid_t pid = fork ();
  if (pid < 0)
    return 'E';
  if (pid == 0)
    {
      close (report[0]);
      race (report[1]);
    }
  close (report[1]);
  char ready = 0;
  if (read (report[0], &ready, 1) != 1 || ready != 'R')
    {
      printf ("# the racer did not start\n");
      kill (pid, SIGKILL);
      waitpid (pid, NULL, 0);
      close (report[0]);
      return 'E';
    }
  bool started = service ("start");
  /* The remount, if any, has happened when the start job is done; give
     the racer a moment more in the final state.  */
  struct timespec moment = { 0, 200 * 1000 * 1000 };
  nanosleep (&moment, NULL);
  kill (pid, SIGKILL);
  waitpid (pid, NULL, 0);
  char result = 0;
  ssize_t n = read (report[0], &result, 1);
  close (report[0]);
  if (!started)
    return 'E';
  return n == 1 && result == 'W' ? 'W' : 'N';
}

int
main (void)
{
  tap_plan (3);
  int won = 0, errors = 0;
  for (int i = 0; i < STARTS; i++)
    {
      if (!service ("stop"))
        errors++;
      char r = start_against_racer ();
      won += r == 'W';
      errors += r == 'E';
      if (r == 'W')
        printf ("# start %d: the test user mapped %s executable\n", i + 1,
                PROBE);
    }
  tap_note ("%d starts: %d won, %d errors", STARTS, won, errors);
  tap_result (won == 0 && errors == 0,
              "no process of the user maps a file of %s executable while "
              "the directory is set up (%d starts)",
              RUNTIME_DIR, STARTS);

  /* Nothing needs the unit here, so systemd may stop it soon after it
     started: look right after a start.  */
  bool started = service ("stop") && service ("start");
  struct statvfs sv;
  bool noexec = started && statvfs (RUNTIME_DIR, &sv) == 0
                && (sv.f_flag & ST_NOEXEC);
  tap_result (noexec, "%s is mounted noexec", RUNTIME_DIR);
  struct stat st = { 0 };
  bool owned = started && stat (RUNTIME_DIR, &st) == 0
               && st.st_uid == USER_UID && (st.st_mode & 07777) == 0700;
  tap_note ("%s: uid %d, mode %04o", RUNTIME_DIR, (int) st.st_uid,
            (unsigned) (st.st_mode & 07777));
  tap_result (owned, "%s is the user's, mode 0700", RUNTIME_DIR);
  service ("stop");
  return tap_failures () == 0 ? 0 : 1;
}
