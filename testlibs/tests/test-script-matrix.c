/* The script matrix (see script-matrix/script-matrix.h): every route x the
   file situations x the exec securebits, as root and as the test user;
   one TAP result per case.  Run as root in the guest.
   Usage: test-script-matrix [EXPECTED-DIR] (the argument is unused)
          test-script-matrix --list  (print the description of each case
          that would run and run none)
   CHECKEXEC_ONLY selects cases as in test-load-matrix.  */
#include <stdio.h>
#include <string.h>

#include "case-filter.h"
#include "command.h"
#include "script-matrix.h"

/* The description of a case in its TAP line (case_name, the securebits
   as the policy).  */
static void
case_description (char *buf, size_t len, const struct script_route *route,
                  enum situation s, enum script_bits b,
                  const struct case_user *user)
{
  case_name (buf, len, route->name, situation_name (s), script_bits_name (b),
             user->name, script_outcome_name (script_expected (route, s, b)));
}

/* Call EACH for every case FILTER selects, in order, with its number and
   description; returns how many EACH said failed.  */
static int
for_each_case (const struct case_filter *filter,
               const struct case_user *users,
               int (*each) (int n, const char *description,
                            const struct script_route *route,
                            enum situation s, enum script_bits b,
                            const struct case_user *user))
{
  char description[512];
  int n = 0, failures = 0;
  for (int u = 0; u < MATRIX_USER_COUNT; u++)
    for (size_t r = 0; r < script_route_count; r++)
      for (int s = 0; s < SITUATION_COUNT; s++)
        for (int b = 0; b < BITS_COUNT; b++)
          {
            if (!script_case_applies (&script_routes[r], s, b, &users[u]))
              continue;
            case_description (description, sizeof description,
                              &script_routes[r], s, b, &users[u]);
            if (filter_selects (filter, description))
              failures += each (++n, description, &script_routes[r], s, b,
                                &users[u]);
          }
  return failures;
}

static int
count_case (int n, const char *description, const struct script_route *route,
            enum situation s, enum script_bits b, const struct case_user *user)
{
  (void) n, (void) description, (void) route, (void) s, (void) b,
      (void) user;
  return 1;
}

static int
list_case (int n, const char *description, const struct script_route *route,
           enum situation s, enum script_bits b, const struct case_user *user)
{
  (void) n, (void) route, (void) s, (void) b, (void) user;
  puts (description);
  return 0;
}

/* Run and judge one case; print its TAP line.  Returns 1 if it failed.  */
static int
run_one_case (int n, const char *description,
              const struct script_route *route, enum situation s,
              enum script_bits b, const struct case_user *user)
{
  static char output[16384];
  char case_dir[32];
  const char *why;
  snprintf (case_dir, sizeof case_dir, "script-%d", n);
  bool ok = script_case_run (case_dir, route, s, b, user, output,
                             sizeof output, &why);
  printf ("%s %d - %s\n", ok ? "ok" : "not ok", n, description);
  if (!ok)
    {
      printf ("# %s; output:\n", why);
      print_comment (output);
    }
  fflush (stdout);
  return !ok;
}

int
main (int argc, char **argv)
{
  bool list;
  struct case_filter filter;
  struct case_user users[MATRIX_USER_COUNT];
  if (matrix_begin (argc, argv, &list, &filter, users) != 0)
    return 1;
  if (list)
    return for_each_case (&filter, users, list_case);
  if (script_cases_prepare () != 0)
    return 1;
  printf ("1..%d\n", for_each_case (&filter, users, count_case));
  fflush (stdout);
  return for_each_case (&filter, users, run_one_case) == 0 ? 0 : 1;
}
