/* Values the host recorded about its build, handed to the guest tests.  */
#ifndef CHECKEXEC_EXPECTED_H
#define CHECKEXEC_EXPECTED_H

#include <stddef.h>

/* Read the first line of DIR/NAME into BUF (without the newline).
   Returns 0, or -1 after printing why.  */
int read_expected (const char *dir, const char *name, char *buf, size_t len);

#endif
