/* The cases of a matrix that make check's filter selects.  */
#include "case-filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
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

void
case_name (char *buf, size_t len, const char *route, const char *situation,
           const char *policy, const char *user, const char *outcome)
{
  snprintf (buf, len, "%s | %s | %s | %s: %s", route, situation, policy, user,
            outcome);
}

int
matrix_begin (int argc, char **argv, bool *listing,
              struct case_filter *filter,
              struct case_user users[MATRIX_USER_COUNT])
{
  *listing = argc > 1 && strcmp (argv[1], "--list") == 0;
  if (filter_init (filter) != 0 || matrix_users (*listing, users) != 0)
    return -1;
  return 0;
}

bool
filter_selects (const struct case_filter *filter, const char *description)
{
  if (!filter->active)
    return true;
  char name[1024];
  if (snprintf (name, sizeof name, "%s%s", filter->prefix, description)
      >= (int) sizeof name)
    return false;
  return regexec (&filter->regex, name, 0, NULL, 0) == 0;
}
