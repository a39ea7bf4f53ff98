/* The places this user can write to are all on noexec mounts: /tmp,
   /var/tmp, /dev/shm, /run/lock, the home directory, /run/user/UID, and any
   other writable directory or regular file the user could use to plant a
   library (a writable file can be overwritten with one).  Walks every
   mount that allows execution and fails on each directory or regular
   file found writable.  Run as the test user.
   Usage: test-writable-places-noexec [EXPECTED-DIR] (unused)  */
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "exec-mounts.h"

static int writable_found;

static int
check_entry (const char *name, const struct stat *st, int type,
             struct FTW *ftw)
{
  (void) ftw;
  bool directory = type == FTW_D;
  bool regular = type == FTW_F && S_ISREG (st->st_mode);
  struct statvfs sv;
  /* A bind mount (/home) is on the same file system as its parent: the
     walk goes into it, statvfs tells its flags.  */
  if ((directory || regular) && access (name, W_OK) == 0
      && (statvfs (name, &sv) != 0 || (sv.f_flag & ST_NOEXEC) == 0))
    {
      printf ("# writable %s on an exec mount: %s\n",
              directory ? "directory" : "file", name);
      writable_found++;
    }
  return 0;
}

/* The places the brief names must be noexec whatever the walk finds.  */
static int
check_named_places (void)
{
  static const char *const places[] = {
    "/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/home", NULL,
  };
  int bad = 0;
  for (int i = 0; places[i] != NULL; i++)
    {
      struct statvfs sv;
      if (statvfs (places[i], &sv) != 0 || (sv.f_flag & ST_NOEXEC) == 0)
        {
          printf ("# %s is not on a noexec mount\n", places[i]);
          bad++;
        }
    }
  return bad;
}

int
main (void)
{
  int bad = check_named_places ();
  int walked = walk_exec_mounts (check_entry);
  printf ("# walked %d mounts that allow execution\n", walked);
  return bad == 0 && writable_found == 0 && walked > 0 ? 0 : 1;
}
