/* TAP output of the tests with several results.  */
#ifndef CHECKEXEC_TAP_H
#define CHECKEXEC_TAP_H

#include <stdbool.h>

/* Print the plan: COUNT results follow.  */
void tap_plan (int count);

/* Print the next result, "ok N - ..." if OK, else "not ok N - ...", with
   the description made from FORMAT; return OK.  */
bool tap_result (bool ok, const char *format, ...)
    __attribute__ ((format (printf, 2, 3)));

/* Print a diagnostic line, "# " and the text made from FORMAT.  A
   result's description is its name and must not vary from run to run:
   what varies (an error, a count, a time) goes here, before the result.  */
void tap_note (const char *format, ...) __attribute__ ((format (printf, 1, 2)));

/* The number of results that were not ok so far.  */
int tap_failures (void);

#endif
