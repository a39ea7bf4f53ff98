/* matrix-case ROUTE SITUATION POLICY USER: run one case of the
   library-loading matrix (see matrix/matrix.h) as root, the way
   test-load-matrix does, and print the oracle's verdict as one record of
   tab-separated fields (make demo's attempts that are matrix cases):
     verdict=OUTCOME  the outcome the oracle expects (outcome_name)
     matched=yes|no   whether the run ended in it
     why=...          what was wrong, when it did not
     message=...      the first line in which ld.so refused the payload
                      or a mapping of it failed, if any
   The names are those the matrix prints (route "LD_PRELOAD", situation
   "0755 file on noexec mount", policy "locked, check answers EINVAL").
   Exit status 0 when the record was printed, 2 on bad arguments.  */
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "matrix.h"
#include "one-case.h"

static const struct route *
route_named (const char *name)
{
  for (size_t i = 0; i < matrix_route_count; i++)
    if (strcmp (matrix_routes[i].name, name) == 0)
      return &matrix_routes[i];
  return NULL;
}

static const char *
situation_name_at (int s)
{
  return situation_name (s);
}

static const char *
policy_name_at (int m)
{
  return policy_name (m);
}

/* The value in [0, COUNT) that NAME_AT names NAME, or -1.  */
static int
value_named (const char *name, int count, const char *(*name_at) (int))
{
  for (int i = 0; i < count; i++)
    if (strcmp (name_at (i), name) == 0)
      return i;
  return -1;
}

/* Print the first line of OUTPUT that contains one of the needles, as a
   field value (no tab); nothing if none does.  */
static void
print_first_message (const char *output)
{
  static const char *const needles[] = {
    "not allowed by the system policy", "failed to map segment",
  };
  for (const char *line = output; *line != '\0';)
    {
      const char *end = strchrnul (line, '\n');
      for (size_t i = 0; i < sizeof needles / sizeof needles[0]; i++)
        {
          const char *hit = strstr (line, needles[i]);
          if (hit != NULL && hit < end && strstr (line, "audit mode") == NULL)
            {
              for (const char *c = line; c < end; c++)
                putchar (*c == '\t' ? ' ' : *c);
              return;
            }
        }
      line = *end == '\0' ? end : end + 1;
    }
}

static int
usage (const char *why)
{
  fprintf (stderr, "matrix-case: %s\n"
           "usage: matrix-case ROUTE SITUATION POLICY USER (as root)\n", why);
  return 2;
}

int
main (int argc, char **argv)
{
  if (argc != 5)
    return usage ("four arguments are needed");
  const struct route *route = route_named (argv[1]);
  int s = value_named (argv[2], SITUATION_COUNT, situation_name_at);
  int m = value_named (argv[3], POLICY_COUNT, policy_name_at);
  struct passwd *pw = getpwnam (argv[4]);
  if (route == NULL)
    return usage ("no such route");
  if (s < 0)
    return usage ("no such situation");
  if (m < 0)
    return usage ("no such policy");
  if (pw == NULL)
    return usage ("no such user");
  if (getuid () != 0)
    return usage ("a case is set up as root");
  struct case_user user = { pw->pw_name, pw->pw_uid, pw->pw_gid };
  if (!case_applies (route, s, m, &user))
    return usage ("the matrix does not run this case");
  if (cases_prepare () != 0)
    return 1;

  static struct case_result result;
  struct case_verdict verdict;
  case_run ("demo", route, s, m, &user, &result, &verdict);
  printf ("verdict=%s\tmatched=%s\twhy=%s\tmessage=",
          outcome_name (verdict.expected), verdict.ok ? "yes" : "no",
          verdict.ok ? "" : verdict.why);
  print_first_message (result.output);
  putchar ('\n');
  return 0;
}
