/* Running one case of the matrix in a child process.  */
#ifndef CHECKEXEC_RUN_CASE_H
#define CHECKEXEC_RUN_CASE_H

#include <stdbool.h>

#include "case-user.h"
#include "matrix.h"

struct case_result
{
  int status;           /* wait status */
  bool timed_out;
  char output[16384];   /* standard output and error, truncated */
};

/* Run ROUTE on the payload named FILE in DIR (situation S, policy M) as USER,
   with the payload's mark file MARK; wait at most TIMEOUT seconds.  */
void run_case (const struct route *route, enum situation s, enum policy m,
               const struct case_user *user, const char *dir,
               const char *file, const char *mark, int timeout,
               struct case_result *result);

#endif
