/* The library-loading matrix (see matrix/matrix.h): every route x every
   situation x every mode, as root and as the test user; one TAP result
   per case.  Run as root in the guest.
   Usage: test-load-matrix [EXPECTED-DIR] (the argument is unused)  */
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "command.h"
#include "files.h"
#include "matrix.h"
#include "run-case.h"

#define MARK_DIR "/tmp/checkexec-marks"
#define MARK MARK_DIR "/mark"
/* Seconds a case may take (python3 under TCG is slow to start).  */
#define CASE_TIMEOUT 120

static bool
applies (const struct route *route, enum situation s, enum policy m,
         const struct case_user *user)
{
  if (route->root_only && user->uid != 0)
    return false;
  /* A memfd has no directory to search.  */
  return !(situation_is_memfd (s) && route->naming == BY_DIRECTORY)
         && policy_applies (m, s, user->uid == 0);
}

static int
count_cases (const struct case_user *users, int user_count)
{
  int n = 0;
  for (int u = 0; u < user_count; u++)
    for (size_t p = 0; p < matrix_route_count; p++)
      for (int s = 0; s < SITUATION_COUNT; s++)
        for (int m = 0; m < POLICY_COUNT; m++)
          n += applies (&matrix_routes[p], s, m, &users[u]);
  return n;
}

static bool
marked (void)
{
  struct stat st;
  return stat (MARK, &st) == 0 && st.st_size > 0;
}

/* Set up, run and judge one case; print its TAP line.  */
static bool
one_case (int n, const struct route *route, enum situation s, enum policy m,
          const struct case_user *user)
{
  char case_dir[32], dir[512], file[1024];
  static struct case_result result;
  const char *why = "setting up the case failed";
  enum outcome expected = expected_outcome (route, s, m);
  bool ok = false;

  snprintf (case_dir, sizeof case_dir, "%d", n);
  result.output[0] = '\0';
  unlink (MARK);
  if (situation_prepare (s, route, case_dir, dir, sizeof dir, file,
                         sizeof file) == 0
      && (route->prepare_root == NULL || route->prepare_root (dir, file) == 0))
    {
      int fifo = situation_hold_fifo (s, file);
      run_case (route, s, m, user, dir, file, MARK, CASE_TIMEOUT, &result);
      if (fifo >= 0)
        close (fifo);
      ok = !result.timed_out
           && outcome_matches (expected, route, s, m, file, marked (),
                               result.output, result.status, &why);
      if (result.timed_out)
        why = "the case did not finish in time";
    }
  unlink ("/etc/ld.so.preload");
  remove_tree (dir);
  printf ("%s %d - %s | %s | %s | %s: %s\n", ok ? "ok" : "not ok", n,
          route->name, situation_name (s), policy_name (m), user->name,
          outcome_name (expected));
  if (!ok)
    {
      printf ("# %s; output:\n", why);
      print_comment (result.output);
    }
  return ok;
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
  if (make_directory ("/run/checkexec", 0755) != 0
      || make_directory ("/var/lib/checkexec", 0755) != 0
      || make_directory (MARK_DIR, 0777) != 0)
    return 1;
  printf ("1..%d\n", count_cases (users, user_count));
  int n = 0, failures = 0;
  for (int u = 0; u < user_count; u++)
    for (size_t p = 0; p < matrix_route_count; p++)
      for (int s = 0; s < SITUATION_COUNT; s++)
        for (int m = 0; m < POLICY_COUNT; m++)
          if (applies (&matrix_routes[p], s, m, &users[u])
              && !one_case (++n, &matrix_routes[p], s, m, &users[u]))
            failures++;
  return failures == 0 ? 0 : 1;
}
