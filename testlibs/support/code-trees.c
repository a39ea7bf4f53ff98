/* Reading the image's list of code trees.  */
#include "code-trees.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Parse LINE (comments and the newline already cut) into TREE.  Returns 1
   for a line, 0 for an empty one, -1 (errno set) for too many patterns or
   no memory.  */
static int
parse_line (char *line, struct code_tree *tree)
{
  char *save, *word = strtok_r (line, " \t", &save);
  if (word == NULL)
    return 0;
  if ((tree->root = strdup (word)) == NULL)
    return -1;
  tree->pattern_count = 0;
  while ((word = strtok_r (NULL, " \t", &save)) != NULL)
    {
      if (tree->pattern_count == CODE_TREE_MAX_PATTERNS)
        {
          errno = E2BIG;
          return -1;
        }
      if ((tree->patterns[tree->pattern_count++] = strdup (word)) == NULL)
        return -1;
    }
  return 1;
}

/* Make room in *TREES for one more than COUNT.  Returns 0, or -1.  */
static int
grow (struct code_tree **trees, int count, int *capacity)
{
  if (count < *capacity)
    return 0;
  int wanted = *capacity ? 2 * *capacity : 16;
  struct code_tree *more = realloc (*trees, wanted * sizeof **trees);
  if (more == NULL)
    return -1;
  *trees = more;
  *capacity = wanted;
  return 0;
}

int
code_trees_read (const char *file, struct code_tree **trees)
{
  char line[1024];
  int count = 0, capacity = 0, parsed = 0;
  FILE *list = fopen (file, "re");
  if (list == NULL)
    return -1;
  *trees = NULL;
  while (parsed >= 0 && fgets (line, sizeof line, list) != NULL)
    {
      if (strchr (line, '\n') == NULL && !feof (list))
        {
          errno = ENAMETOOLONG;
          parsed = -1;
        }
      else if (grow (trees, count, &capacity) != 0)
        parsed = -1;
      else
        {
          line[strcspn (line, "#\n")] = '\0';
          parsed = parse_line (line, &(*trees)[count]);
          count += parsed == 1;
        }
    }
  fclose (list);
  return parsed < 0 ? -1 : count;
}

bool
code_tree_names (const struct code_tree *tree, const char *name)
{
  if (tree->pattern_count == 0)
    return true;
  for (int i = 0; i < tree->pattern_count; i++)
    if (fnmatch (tree->patterns[i], name, 0) == 0)
      return true;
  return false;
}

bool
code_tree_is_roots (const char *root)
{
  char path[1024];
  struct stat st;
  if (root[0] != '/' || root[1] == '\0' || snprintf (path, sizeof path, "%s", root)
                            >= (int) sizeof path)
    return false;
  bool found = false;
  for (char *end = path + strlen (path); end > path;
       end = strrchr (path, '/'), *end = '\0')
    {
      if (lstat (path, &st) != 0)
        {
          /* Not made yet (a vendor directory of perl's): it is what the
             directories above it let be made there.  */
          if (errno == ENOENT && !found)
            continue;
          return false;
        }
      found = true;
      if (st.st_uid != 0 || S_ISLNK (st.st_mode) || (st.st_mode & 022) != 0)
        return false;
    }
  return true;
}

bool
code_trees_cover (const struct code_tree *trees, int count, const char *path)
{
  const char *name = strrchr (path, '/');
  name = name ? name + 1 : path;
  for (int i = 0; i < count; i++)
    {
      size_t len = strlen (trees[i].root);
      bool inside = strncmp (path, trees[i].root, len) == 0
                    && (path[len] == '\0'
                        || (path[len] == '/' && trees[i].pattern_count > 0));
      if (inside && code_tree_names (&trees[i], name))
        return true;
    }
  return false;
}
