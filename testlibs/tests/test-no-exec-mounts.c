/* The test user cannot make a new place to execute from: every way an
   unprivileged user has to mount a file system is tried and must fail (a
   new user namespace with a mount namespace, as unshare -Urm does; a
   mount namespace alone; mount(2) and fsopen(2) of a tmpfs; the unshare
   tool itself), and nothing on the system mounts for users (no "user"
   entry in /etc/fstab without noexec, no setuid FUSE helper, no
   /dev/fuse).  One TAP result per way.  Run as the test user.
   Usage: test-no-exec-mounts [EXPECTED-DIR] (unused)  */
#include <errno.h>
#include <mntent.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "attempt.h"
#include "command.h"
#include "tap.h"

static int
try_unshare (void *flags)
{
  return unshare (*(int *) flags) == 0 ? 0 : errno;
}

/* In a new user and mount namespace, as unshare -Urm makes them: mount a
   tmpfs.  Never reached unless the namespace could be made.  */
static int
try_userns_mount (void *unused)
{
  (void) unused;
  if (unshare (CLONE_NEWUSER | CLONE_NEWNS) != 0)
    return errno;
  return mount ("none", "/tmp", "tmpfs", 0, NULL) == 0 ? 0 : errno;
}

static int
try_mount (void *dir)
{
  return mount ("none", dir, "tmpfs", 0, NULL) == 0 ? 0 : errno;
}

static int
try_fsopen (void *unused)
{
  (void) unused;
  long fd = syscall (SYS_fsopen, "tmpfs", 0);
  return fd >= 0 ? 0 : errno;
}

/* One attempt that must be refused for lack of privilege (EPERM; any
   other error could hide that the way is open); its result names the
   error.  */
static void
expect_refused (const char *what, int (*try) (void *), void *closure)
{
  int error = attempt_in_child (try, closure);
  tap_note ("%s: %s", what,
            error == 0 ? "it succeeded"
            : error < 0 ? "the child crashed" : strerror (error));
  tap_result (error == EPERM, "%s is refused with EPERM", what);
}

static void
unshare_tool_fails (void)
{
  char output[4096];
  char *const argv[] = { "/usr/bin/unshare", "-Urm", "/bin/true", NULL };
  int status = run_command (argv, output, sizeof output);
  tap_note ("unshare -Urm: status %d", status);
  if (!tap_result (status != 0, "unshare -Urm fails"))
    print_comment (output);
}

/* Whether the fstab entry M lets users mount it executable.  */
static bool
user_mountable_exec (const struct mntent *m)
{
  static const char *const user_options[] = { "user", "users", "owner",
                                              "group", NULL };
  for (int i = 0; user_options[i] != NULL; i++)
    if (hasmntopt (m, user_options[i]) != NULL)
      return hasmntopt (m, "noexec") == NULL;
  return false;
}

static void
fstab_has_no_user_exec_mount (void)
{
  FILE *fstab = setmntent ("/etc/fstab", "r");
  int found = 0;
  struct mntent *m;
  while (fstab != NULL && (m = getmntent (fstab)) != NULL)
    if (user_mountable_exec (m))
      {
        printf ("# users may mount %s on %s\n", m->mnt_fsname, m->mnt_dir);
        found++;
      }
  if (fstab != NULL)
    endmntent (fstab);
  tap_result (fstab != NULL && found == 0,
              "/etc/fstab has no entry users may mount executable");
}

static void
no_fuse (void)
{
  static const char *const helpers[] = { "/usr/bin/fusermount",
                                         "/usr/bin/fusermount3", NULL };
  struct stat st;
  int found = 0;
  for (int i = 0; helpers[i] != NULL; i++)
    if (stat (helpers[i], &st) == 0 && (st.st_mode & S_ISUID) != 0)
      {
        printf ("# setuid FUSE helper: %s\n", helpers[i]);
        found++;
      }
  bool no_device = stat ("/dev/fuse", &st) != 0;
  if (!no_device)
    tap_note ("/dev/fuse exists");
  tap_result (found == 0 && no_device,
              "no FUSE: no setuid helper, no /dev/fuse");
}

int
main (void)
{
  if (getuid () == 0)
    {
      printf ("1..1\nnot ok 1 - run as the test user, not root\n");
      return 1;
    }
  char *dir = getenv ("HOME");
  int userns = CLONE_NEWUSER, mountns = CLONE_NEWNS;
  tap_plan (8);
  expect_refused ("a new user namespace", try_unshare, &userns);
  expect_refused ("a tmpfs in a new user and mount namespace",
                  try_userns_mount, NULL);
  expect_refused ("a new mount namespace", try_unshare, &mountns);
  expect_refused ("mount(2) of a tmpfs on $HOME", try_mount,
                  dir != NULL ? dir : "/tmp");
  expect_refused ("fsopen(2) of a tmpfs", try_fsopen, NULL);
  unshare_tool_fails ();
  fstab_has_no_user_exec_mount ();
  no_fuse ();
  return tap_failures () == 0 ? 0 : 1;
}
