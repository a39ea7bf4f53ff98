/* The cases of a matrix that make check's filter selects (CHECKEXEC_ONLY,
   see run-tests).  */
#ifndef CHECKEXEC_CASE_FILTER_H
#define CHECKEXEC_CASE_FILTER_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "case-user.h"

struct case_filter
{
  bool active;
  regex_t regex;
  const char *prefix;  /* what comes before the description in a name */
};

/* Compile CHECKEXEC_ONLY into FILTER, if it is set.  Returns 0, or -1
   after printing a failed result that says why.  */
int filter_init (struct case_filter *filter);

/* Whether FILTER selects the case described as DESCRIPTION (its result's
   name is CHECKEXEC_ONLY_PREFIX followed by DESCRIPTION).  */
bool filter_selects (const struct case_filter *filter,
                     const char *description);

/* A case's description, its TAP name: "ROUTE | SITUATION | POLICY | USER:
   OUTCOME", into BUF of LEN bytes.  */
void case_name (char *buf, size_t len, const char *route,
                const char *situation, const char *policy, const char *user,
                const char *outcome);

/* The start of a matrix's main: LISTING (is the only argument --list:
   print the cases' names, run none), FILTER and USERS (matrix_users).
   Returns 0, or -1 after printing a failed result that says why.  */
int matrix_begin (int argc, char **argv, bool *listing,
                  struct case_filter *filter,
                  struct case_user users[MATRIX_USER_COUNT]);

#endif
