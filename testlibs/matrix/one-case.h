/* Setting up, running and judging one case of the matrix: the one piece
   that test-load-matrix (every case) and matrix-case (the demonstration's
   cases) share, so that both give the oracle's verdict.  */
#ifndef CHECKEXEC_ONE_CASE_H
#define CHECKEXEC_ONE_CASE_H

#include <stdbool.h>

#include "matrix.h"
#include "run-case.h"

/* What one case ended in, judged by the oracle (expect.c).  */
struct case_verdict
{
  enum outcome expected;
  bool ok;
  const char *why;  /* what was wrong, when !ok */
};

/* Whether ROUTE is run in situation S and policy M for USER at all.  */
bool case_applies (const struct route *route, enum situation s,
                   enum policy m, const struct case_user *user);

/* As root, once: make the directories every case needs.  Returns 0, or -1
   after printing why.  */
int cases_prepare (void);

/* As root: set up the case in the case directory named CASE_DIR, run it as
   USER (its output in RESULT), judge it into VERDICT and clean up.  */
void case_run (const char *case_dir, const struct route *route,
               enum situation s, enum policy m, const struct case_user *user,
               struct case_result *result, struct case_verdict *verdict);

#endif
