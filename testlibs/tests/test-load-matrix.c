/* The library-loading matrix (see matrix/matrix.h): every route x every
   situation x every mode, as root and as the test user; one TAP result
   per case.  Run as root in the guest.
   Usage: test-load-matrix [EXPECTED-DIR] (the argument is unused)  */
#include <pwd.h>
#include <stdio.h>
#include <unistd.h>

#include "command.h"
#include "matrix.h"
#include "one-case.h"

static int
count_cases (const struct case_user *users, int user_count)
{
  int n = 0;
  for (int u = 0; u < user_count; u++)
    for (size_t p = 0; p < matrix_route_count; p++)
      for (int s = 0; s < SITUATION_COUNT; s++)
        for (int m = 0; m < POLICY_COUNT; m++)
          n += case_applies (&matrix_routes[p], s, m, &users[u]);
  return n;
}

/* Run and judge one case; print its TAP line.  */
static bool
one_case (int n, const struct route *route, enum situation s, enum policy m,
          const struct case_user *user)
{
  char case_dir[32];
  static struct case_result result;
  struct case_verdict verdict;

  snprintf (case_dir, sizeof case_dir, "%d", n);
  case_run (case_dir, route, s, m, user, &result, &verdict);
  printf ("%s %d - %s | %s | %s | %s: %s\n", verdict.ok ? "ok" : "not ok", n,
          route->name, situation_name (s), policy_name (m), user->name,
          outcome_name (verdict.expected));
  if (!verdict.ok)
    {
      printf ("# %s; output:\n", verdict.why);
      print_comment (result.output);
    }
  return verdict.ok;
}

int
main (void)
{
  struct passwd *tester = getpwnam ("tester");
  if (tester == NULL || getuid () != 0)
    {
      printf ("1..1\nnot ok 1 - the matrix runs as root and needs the user"
              " tester\n");
      return 1;
    }
  struct case_user users[] = {
    { "root", 0, 0 },
    { "tester", tester->pw_uid, tester->pw_gid },
  };
  int user_count = sizeof users / sizeof users[0];
  if (cases_prepare () != 0)
    return 1;
  printf ("1..%d\n", count_cases (users, user_count));
  int n = 0, failures = 0;
  for (int u = 0; u < user_count; u++)
    for (size_t p = 0; p < matrix_route_count; p++)
      for (int s = 0; s < SITUATION_COUNT; s++)
        for (int m = 0; m < POLICY_COUNT; m++)
          if (case_applies (&matrix_routes[p], s, m, &users[u])
              && !one_case (++n, &matrix_routes[p], s, m, &users[u]))
            failures++;
  return failures == 0 ? 0 : 1;
}
