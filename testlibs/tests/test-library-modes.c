/* Every shared object in the system library directories, and every code
   file the image's code trees name (/usr/share/checkexec/code-trees), has
   an execute bit, so that enforcement refuses nothing legitimate.
   Usage: test-library-modes [EXPECTED-DIR] (unused)  */
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>

#include "code-trees.h"

static int files;
static int without_x;
/* The tree being walked.  */
static const struct code_tree *current;

static int
check_file (const char *name, const struct stat *st, int type,
            struct FTW *ftw)
{
  if (type != FTW_F || !S_ISREG (st->st_mode)
      || !code_tree_names (current, name + ftw->base))
    return 0;
  files++;
  if ((st->st_mode & 0111) != 0111)
    {
      if (without_x++ < 20)
        printf ("# mode %04o: %s\n", (unsigned) st->st_mode & 07777, name);
    }
  return 0;
}

/* Walk TREE for the files it names.  */
static void
walk (const struct code_tree *tree)
{
  current = tree;
  nftw (tree->root, check_file, 32, FTW_PHYS | FTW_MOUNT);
}

/* The shared objects of the library directories.  Returns how many.  */
static int
check_libraries (void)
{
  static char *const dirs[] = { "/usr/lib", "/usr/local/lib" };
  files = 0;
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
    walk (&(struct code_tree) { .root = dirs[i],
                                .patterns = { "*.so", "*.so.*" },
                                .pattern_count = 2 });
  return files;
}

/* The code files the code trees name.  Returns how many, or -1 if the
   list cannot be read.  */
static int
check_code_trees (void)
{
  struct code_tree *trees;
  int count = code_trees_read (CODE_TREES, &trees);
  if (count < 0)
    {
      printf ("# %s: %m\n", CODE_TREES);
      return -1;
    }
  files = 0;
  for (int i = 0; i < count; i++)
    walk (&trees[i]);
  return files;
}

int
main (void)
{
  int objects = check_libraries ();
  int code_files = check_code_trees ();
  printf ("# %d shared objects, %d code files, %d without an execute bit "
          "for everyone\n", objects, code_files, without_x);
  /* The Python standard library alone has far more than 500 files.  */
  return objects > 100 && code_files > 500 && without_x == 0 ? 0 : 1;
}
