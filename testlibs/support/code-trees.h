/* The image's list of code trees (/usr/share/checkexec/code-trees): the
   files the interpreters run as code, which fix-library-modes makes
   executable.  */
#ifndef CHECKEXEC_CODE_TREES_H
#define CHECKEXEC_CODE_TREES_H

#include <stdbool.h>

#define CODE_TREES "/usr/share/checkexec/code-trees"
#define CODE_TREE_MAX_PATTERNS 8

/* A line "ROOT PATTERN...": the files below ROOT whose names match a
   pattern; or "ROOT" alone: the file ROOT.  */
struct code_tree
{
  char *root;
  char *patterns[CODE_TREE_MAX_PATTERNS];
  int pattern_count;
};

/* Read the list in FILE into *TREES (malloc'd).  Returns the number of
   lines, or -1 (errno set) if FILE cannot be read, a line is too long or
   has too many patterns, or memory runs out.  */
int code_trees_read (const char *file, struct code_tree **trees);

/* Whether NAME, the base name of a file in TREE, is one TREE names.  */
bool code_tree_names (const struct code_tree *tree, const char *name);

/* Whether ROOT (a full path, not "/"), and every directory above it, is
   root's, no symbolic link, and writable by root only: no user can put a
   file where fix-library-modes makes it executable.  A ROOT that does not
   exist yet is judged by the nearest directory above it that does.  */
bool code_tree_is_roots (const char *root);

/* Whether one of the COUNT TREES names the file PATH.  */
bool code_trees_cover (const struct code_tree *trees, int count,
                       const char *path);

#endif
