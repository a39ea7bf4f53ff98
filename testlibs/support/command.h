/* Running a command and capturing what it prints.  */
#ifndef CHECKEXEC_COMMAND_H
#define CHECKEXEC_COMMAND_H

#include <stddef.h>

/* Run ARGV (argv[0] a full path) with standard output and error into
   OUTPUT (LEN bytes, truncated, NUL-terminated).  Returns the exit status,
   or -1 if it did not exit normally.  */
int run_command (char *const argv[], char *output, size_t len);

/* Print TEXT as TAP comments.  */
void print_comment (const char *text);

#endif
