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
#include <pwd.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "matrix.h"
#include "one-case.h"

/* The cases the host's filter selects (all when it is not active).  */
struct case_filter
{
  bool active;
  regex_t regex;
  const char *prefix;  /* what comes before the description in a name */
};

/* Compile CHECKEXEC_ONLY into FILTER, if it is set.  Returns 0, or -1
   after printing a failed result that says why.  */
static int
filter_init (struct case_filter *filter)
{
  const char *only = getenv ("CHECKEXEC_ONLY");
  const char *prefix = getenv ("CHECKEXEC_ONLY_PREFIX");
  filter->active = only != NULL && only[0] != '\0';
  filter->prefix = prefix != NULL ? prefix : "";
  if (!filter->active)
    return 0;
  int error = regcomp (&filter->regex, only, REG_EXTENDED | REG_NOSUB);
  if (error != 0)
    {
      char why[256];
      regerror (error, &filter->regex, why, sizeof why);
      printf ("1..1\nnot ok 1 - CHECKEXEC_ONLY is a valid POSIX extended"
              " regular expression\n# CHECKEXEC_ONLY='%s': %s\n", only, why);
      return -1;
    }
  return 0;
}

/* The description of a case in its TAP line: "ROUTE | SITUATION | POLICY
   | USER: OUTCOME".  */
static void
case_description (char *buf, size_t len, const struct route *route,
                  enum situation s, enum policy m,
                  const struct case_user *user)
{
  snprintf (buf, len, "%s | %s | %s | %s: %s", route->name,
            situation_name (s), policy_name (m), user->name,
            outcome_name (expected_outcome (route, s, m)));
}

/* Whether the case runs: it applies, and the filter selects its name.  */
static bool
case_selected (const struct case_filter *filter, const struct route *route,
               enum situation s, enum policy m, const struct case_user *user)
{
  if (!case_applies (route, s, m, user))
    return false;
  if (!filter->active)
    return true;
  char name[1024];
  size_t prefix_len = strlen (filter->prefix);
  if (prefix_len >= sizeof name)
    return false;
  memcpy (name, filter->prefix, prefix_len);
  case_description (name + prefix_len, sizeof name - prefix_len, route, s, m,
                    user);
  return regexec (&filter->regex, name, 0, NULL, 0) == 0;
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
  bool list = argc > 1 && strcmp (argv[1], "--list") == 0;
  struct case_filter filter;
  if (filter_init (&filter) != 0)
    return 1;
  struct passwd *tester = getpwnam ("tester");
  if (!list && (tester == NULL || getuid () != 0))
    {
      printf ("1..1\nnot ok 1 - the matrix runs as root and needs the user"
              " tester\n");
      return 1;
    }
  /* Only whether a user is root matters to which cases apply.  */
  uid_t tester_uid = tester != NULL ? tester->pw_uid : 65534;
  gid_t tester_gid = tester != NULL ? tester->pw_gid : 65534;
  struct case_user users[] = {
    { "root", 0, 0 },
    { "tester", tester_uid, tester_gid },
  };
  int user_count = sizeof users / sizeof users[0];
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
