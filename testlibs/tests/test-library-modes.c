/* Every shared object in the system library directories has an execute
   bit, so that enforcement refuses nothing legitimate.
   Usage: test-library-modes [EXPECTED-DIR] (unused)  */
#include <fnmatch.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static int objects;
static int without_x;

static int
check_object (const char *name, const struct stat *st, int type,
              struct FTW *ftw)
{
  const char *base = name + ftw->base;
  if (type != FTW_F || !S_ISREG (st->st_mode)
      || (fnmatch ("*.so", base, 0) != 0 && fnmatch ("*.so.*", base, 0) != 0))
    return 0;
  objects++;
  if ((st->st_mode & 0111) != 0111)
    {
      if (without_x++ < 20)
        printf ("# mode %04o: %s\n", (unsigned) st->st_mode & 07777, name);
    }
  return 0;
}

int
main (void)
{
  static const char *const dirs[] = { "/usr/lib", "/usr/local/lib", NULL };
  for (int i = 0; dirs[i] != NULL; i++)
    nftw (dirs[i], check_object, 32, FTW_PHYS | FTW_MOUNT);
  printf ("# %d shared objects, %d without an execute bit for everyone\n",
          objects, without_x);
  return objects > 100 && without_x == 0 ? 0 : 1;
}
