/* Every shared object in the system library directories, and every code
   file of the trees /usr/share/checkexec/code-trees lists, has an execute
   bit, so that enforcement refuses nothing legitimate.
   Usage: test-library-modes [EXPECTED-DIR] (unused)  */
#include <fnmatch.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define CODE_TREES "/usr/share/checkexec/code-trees"
#define MAX_PATTERNS 8

static int files;
static int without_x;
/* The name patterns of the files being counted.  */
static const char *patterns[MAX_PATTERNS];
static int pattern_count;

static int
wanted (const char *base)
{
  for (int i = 0; i < pattern_count; i++)
    if (fnmatch (patterns[i], base, 0) == 0)
      return 1;
  return 0;
}

static int
check_file (const char *name, const struct stat *st, int type,
            struct FTW *ftw)
{
  if (type != FTW_F || !S_ISREG (st->st_mode) || !wanted (name + ftw->base))
    return 0;
  files++;
  if ((st->st_mode & 0111) != 0111)
    {
      if (without_x++ < 20)
        printf ("# mode %04o: %s\n", (unsigned) st->st_mode & 07777, name);
    }
  return 0;
}

/* Walk TREE for files named like the current patterns.  */
static void
walk (const char *tree)
{
  nftw (tree, check_file, 32, FTW_PHYS | FTW_MOUNT);
}

/* The shared objects of the library directories.  Returns how many.  */
static int
check_libraries (void)
{
  static const char *const dirs[] = { "/usr/lib", "/usr/local/lib", NULL };
  pattern_count = 2;
  patterns[0] = "*.so";
  patterns[1] = "*.so.*";
  files = 0;
  for (int i = 0; dirs[i] != NULL; i++)
    walk (dirs[i]);
  return files;
}

/* The code files of the trees CODE_TREES lists.  Returns how many, or -1
   if the list cannot be read.  */
static int
check_code_trees (void)
{
  char line[1024];
  FILE *list = fopen (CODE_TREES, "re");
  if (list == NULL)
    {
      printf ("# %s: %m\n", CODE_TREES);
      return -1;
    }
  files = 0;
  while (fgets (line, sizeof line, list) != NULL)
    {
      line[strcspn (line, "#\n")] = '\0';
      char *save, *tree = strtok_r (line, " \t", &save);
      if (tree == NULL)
        continue;
      pattern_count = 0;
      char *p;
      while (pattern_count < MAX_PATTERNS
             && (p = strtok_r (NULL, " \t", &save)) != NULL)
        patterns[pattern_count++] = p;
      walk (tree);
    }
  fclose (list);
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
