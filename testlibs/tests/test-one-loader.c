/* The project's ld.so is the only dynamic linker this user can run: any
   other file named like one (ld-linux*.so*, ld-*.so*, ld.so) that the
   user can reach on a mount that allows execution is either the same file
   or has no execute bit (then the check refuses it).  An unpatched ld.so
   that passes the check would load, under the securebits, whatever the
   patched one refuses.  Walks every mount that allows execution; run as
   the test user.
   Usage: test-one-loader [EXPECTED-DIR] (unused)  */
#include <fcntl.h>
#include <fnmatch.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exec-mounts.h"

#define OURS "/lib64/ld-linux-x86-64.so.2"

static int other_loaders;
static int loaders_seen;

/* Whether the files A and B have the same contents.  */
static bool
same_contents (const char *a, const char *b)
{
  int fa = open (a, O_RDONLY | O_CLOEXEC), fb = open (b, O_RDONLY | O_CLOEXEC);
  bool same = fa >= 0 && fb >= 0;
  char ba[65536], bb[65536];
  while (same)
    {
      ssize_t na = read (fa, ba, sizeof ba), nb = read (fb, bb, sizeof bb);
      same = na == nb && na >= 0 && memcmp (ba, bb, na) == 0;
      if (na <= 0)
        break;
    }
  if (fa >= 0)
    close (fa);
  if (fb >= 0)
    close (fb);
  return same;
}

static int
check_entry (const char *name, const struct stat *st, int type,
             struct FTW *ftw)
{
  const char *base = name + ftw->base;
  bool named_like_one = fnmatch ("ld-linux*.so*", base, 0) == 0
                        || fnmatch ("ld-*.so*", base, 0) == 0
                        || strcmp (base, "ld.so") == 0;
  if (type != FTW_F || !S_ISREG (st->st_mode) || !named_like_one)
    return 0;
  loaders_seen++;
  if ((st->st_mode & 0111) != 0 && !same_contents (name, OURS))
    {
      printf ("# another dynamic linker, executable: %s\n", name);
      other_loaders++;
    }
  return 0;
}

int
main (void)
{
  if (walk_exec_mounts (check_entry) < 0)
    return 1;
  printf ("# %d files named like a dynamic linker, %d of them another one\n",
          loaders_seen, other_loaders);
  /* The walk must at least have found ours.  */
  return loaders_seen > 0 && other_loaders == 0 ? 0 : 1;
}
