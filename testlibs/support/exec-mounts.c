/* Walking every mount that allows execution.  */
#include "exec-mounts.h"

#include <mntent.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* File systems where no file can be created and then mapped or run.  */
static const char *const pseudo_filesystems[] = {
  "proc", "sysfs", "cgroup", "cgroup2", "mqueue", "devpts", "securityfs",
  "debugfs", "tracefs", "bpf", "pstore", "configfs", "fusectl", "autofs",
  "binfmt_misc", "efivarfs", "hugetlbfs", NULL,
};

static bool
is_pseudo (const char *type)
{
  for (int i = 0; pseudo_filesystems[i] != NULL; i++)
    if (strcmp (type, pseudo_filesystems[i]) == 0)
      return true;
  return false;
}

int
walk_exec_mounts (int (*fn) (const char *name, const struct stat *st,
                             int type, struct FTW *ftw))
{
  FILE *mounts = setmntent ("/proc/self/mounts", "r");
  if (mounts == NULL)
    return -1;
  struct mntent *m;
  int walked = 0;
  while ((m = getmntent (mounts)) != NULL)
    {
      if (hasmntopt (m, "noexec") != NULL || is_pseudo (m->mnt_type))
        continue;
      walked++;
      nftw (m->mnt_dir, fn, 32, FTW_PHYS | FTW_MOUNT);
    }
  endmntent (mounts);
  return walked;
}
