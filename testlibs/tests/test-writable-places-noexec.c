/* The places this user can write to are all on noexec mounts: /tmp,
   /var/tmp, /dev/shm, /run/lock, the home directory, /run/user/UID, and any
   other writable directory or regular file the user could use to plant a
   library (a writable file can be overwritten with one).  Walks every
   mount that allows execution and fails on each directory or regular
   file found writable.  Run as the test user.
   Usage: test-writable-places-noexec [EXPECTED-DIR] (unused)  */
#include <ftw.h>
#include <mntent.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* File systems where no file can be created and then mapped or run.  */
static const char *const pseudo_filesystems[] = {
  "proc", "sysfs", "cgroup", "cgroup2", "mqueue", "devpts", "securityfs",
  "debugfs", "tracefs", "bpf", "pstore", "configfs", "fusectl", "autofs",
  "binfmt_misc", "efivarfs", "hugetlbfs", NULL,
};

static int writable_found;

static bool
is_pseudo (const char *type)
{
  for (int i = 0; pseudo_filesystems[i] != NULL; i++)
    if (strcmp (type, pseudo_filesystems[i]) == 0)
      return true;
  return false;
}

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
  FILE *mounts = setmntent ("/proc/self/mounts", "r");
  if (mounts == NULL)
    return 1;
  struct mntent *m;
  int walked = 0;
  while ((m = getmntent (mounts)) != NULL)
    {
      if (hasmntopt (m, "noexec") != NULL || is_pseudo (m->mnt_type))
        continue;
      walked++;
      nftw (m->mnt_dir, check_entry, 32, FTW_PHYS | FTW_MOUNT);
    }
  endmntent (mounts);
  printf ("# walked %d mounts that allow execution\n", walked);
  return bad == 0 && writable_found == 0 && walked > 0 ? 0 : 1;
}
