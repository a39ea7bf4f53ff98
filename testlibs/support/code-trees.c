/* Reading the image's list of code trees.  */
#include "code-trees.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parse LINE (comments and the newline already cut) into TREE.  Returns 1
   for a line, 0 for an empty one, -1 for too many patterns.  */
static int
parse_line (char *line, struct code_tree *tree)
{
  char *save, *word = strtok_r (line, " \t", &save);
  if (word == NULL)
    return 0;
  tree->root = strdup (word);
  tree->pattern_count = 0;
  while ((word = strtok_r (NULL, " \t", &save)) != NULL)
    {
      if (tree->pattern_count == CODE_TREE_MAX_PATTERNS)
        return -1;
      tree->patterns[tree->pattern_count++] = strdup (word);
    }
  return 1;
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
      if (count == capacity)
        {
          capacity = capacity ? 2 * capacity : 16;
          *trees = realloc (*trees, capacity * sizeof **trees);
        }
      line[strcspn (line, "#\n")] = '\0';
      parsed = parse_line (line, &(*trees)[count]);
      count += parsed == 1;
    }
  fclose (list);
  if (parsed < 0)
    {
      errno = E2BIG;
      return -1;
    }
  return count;
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
