/* The library-loading matrix (see matrix/matrix.h): every route x every
   situation x every mode, as root and as the test user; one TAP result
   per case.  Run as root in the guest.
   Usage: test-load-matrix [EXPECTED-DIR] (the argument is unused)
          test-load-matrix --list  (print the description of each case
          that would run and run none; needs neither root nor the user)
   With CHECKEXEC_ONLY set (run-tests sets it for make check's filter), only
   the cases whose result name, CHECKEXEC_ONLY_PREFIX followed by the
   description, the POSIX extended regular expression CHECKEXEC_ONLY
   matches run.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case-filter.h"
#include "command.h"
#include "matrix.h"
#include "one-case.h"

/* The description of a case in its TAP line (case_name).  */
static void
case_description (char *buf, size_t len, const struct route *route,
                  enum situation s, enum policy m,
                  const struct case_user *user)
{
  case_name (buf, len, route->name, situation_name (s), policy_name (m),
             user->name, outcome_name (expected_outcome (route, s, m)));
}

/* Whether the case runs: it applies, and the filter selects its name.  */
static bool
case_selected (const struct case_filter *filter, const struct route *route,
               enum situation s, enum policy m, const struct case_user *user)
{
  if (!case_applies (route, s, m, user))
    return false;
  char description[512];
  case_description (description, sizeof description, route, s, m, user);
  return filter_selects (filter, description);
}

static int
count_cases (const struct case_filter *filter,
             const struct case_user *users, int user_count)
{
  int n = 0;
  for (int u = 0; u < user_count; u++)
    for (size_t p = 0; p < matrix_route_count; p++)
      for (int s = 0; s < SITUATION_COUNT; s++)
        for (int m = 0; m < POLICY_COUNT; m++)
          n += case_selected (filter, &matrix_routes[p], s, m, &users[u]);
  return n;
}

/* Run and judge one case; print its TAP line.  */
static bool
one_case (int n, const struct route *route, enum situation s, enum policy m,
          const struct case_user *user)
{
  char case_dir[32], description[512];
  static struct case_result result;
  struct case_verdict verdict;

  snprintf (case_dir, sizeof case_dir, "%d", n);
  case_run (case_dir, route, s, m, user, &result, &verdict);
  case_description (description, sizeof description, route, s, m, user);
  printf ("%s %d - %s\n", verdict.ok ? "ok" : "not ok", n, description);
  if (!verdict.ok)
    {
      printf ("# %s; output:\n", verdict.why);
      print_comment (result.output);
    }
  return verdict.ok;
}

/* Print the description of every case FILTER selects.  */
static void
list_cases (const struct case_filter *filter, const struct case_user *users,
            int user_count)
{
  char description[512];
  for (int u = 0; u < user_count; u++)
    for (size_t p = 0; p < matrix_route_count; p++)
      for (int s = 0; s < SITUATION_COUNT; s++)
        for (int m = 0; m < POLICY_COUNT; m++)
          if (case_selected (filter, &matrix_routes[p], s, m, &users[u]))
            {
              case_description (description, sizeof description,
                                &matrix_routes[p], s, m, &users[u]);
              puts (description);
            }
}

int
main (int argc, char **argv)
{
  bool list;
  struct case_filter filter;
  struct case_user users[MATRIX_USER_COUNT];
  if (matrix_begin (argc, argv, &list, &filter, users) != 0)
    return 1;
  int user_count = MATRIX_USER_COUNT;
  if (list)
    {
      list_cases (&filter, users, user_count);
      return 0;
    }
  if (cases_prepare () != 0)
    return 1;
  printf ("1..%d\n", count_cases (&filter, users, user_count));
  int n = 0, failures = 0;
  for (int u = 0; u < user_count; u++)
    for (size_t p = 0; p < matrix_route_count; p++)
      for (int s = 0; s < SITUATION_COUNT; s++)
        for (int m = 0; m < POLICY_COUNT; m++)
          if (case_selected (&filter, &matrix_routes[p], s, m, &users[u])
              && !one_case (++n, &matrix_routes[p], s, m, &users[u]))
            failures++;
  return failures == 0 ? 0 : 1;
}
