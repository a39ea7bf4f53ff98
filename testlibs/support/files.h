/* Small file helpers of the tests.  Each returns 0, or -1 after printing
   why as a TAP comment.  */
#ifndef CHECKEXEC_FILES_H
#define CHECKEXEC_FILES_H

#include <sys/types.h>

int copy_file (const char *from, const char *to, mode_t mode);
int copy_into_fd (const char *from, int fd);
int write_file (const char *name, const char *text);
int make_directory (const char *name, mode_t mode);
int remove_tree (const char *name);
int replace_symlink (const char *target, const char *name);
/* Copy the regular files of the directory FROM into TO (created if
   needed) with mode MODE, and its symbolic links as they are.  */
int copy_directory (const char *from, const char *to, mode_t mode);

#endif
