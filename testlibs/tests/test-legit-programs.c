/* Nothing legitimate is refused under enforcement: the everyday programs
   of /usr/lib/checkexec/legit-programs, and the libraries and modules they
   load at run time, work in the test user's enforced login session and for
   root under set-exec -f -l -m.  Run as root.
   Usage: test-legit-programs [EXPECTED-DIR] (unused)  */
#include <stdio.h>
#include <string.h>

#include "command.h"

/* USER COMMAND lines: USER is "all" or "root".  */
#define PROGRAMS "/usr/lib/checkexec/legit-programs"
#define POLICY "not allowed by the system policy"
/* The refusal the test user's login shell reports of the start-up file on
   the noexec home, and then goes on without it (docs/interpreters.md):
   expected, and nothing else the program prints may speak of the policy.  */
#define HOME_PROFILE_REFUSED \
  "cannot run /home/tester/.profile: " POLICY ": Permission denied"

/* Whether OUTPUT says the policy refused something other than what
   EXPECTED (a line, or NULL) says.  */
static int
refused_besides (const char *output, const char *expected)
{
  for (const char *line = output; *line != '\0';)
    {
      size_t len = strcspn (line, "\n");
      const char *policy = strstr (line, POLICY);
      if (policy != NULL && policy < line + len
          && (expected == NULL || strstr (line, expected) == NULL
              || strstr (line, expected) >= line + len))
        return 1;
      line += len + (line[len] == '\n');
    }
  return 0;
}

/* Run COMMAND through a shell of the enforced session WHO.  */
static int
run_enforced (const char *who, const char *command)
{
  char output[16384];
  char *const as_tester[] = { "/usr/bin/su", "-", "tester", "-c",
                              (char *) command, NULL };
  char *const as_root[] = { "/usr/bin/set-exec", "-f", "-l", "-m", "--",
                            "/bin/bash", "-c", (char *) command, NULL };
  int tester = strcmp (who, "tester") == 0;
  int status = run_command (tester ? as_tester : as_root, output,
                            sizeof output);
  int ok = status == 0
           && !refused_besides (output, tester ? HOME_PROFILE_REFUSED : NULL);
  printf ("# %s %s: status %d%s\n", ok ? "ran" : "FAILED", command, status,
          ok ? "" : ", output:");
  if (!ok)
    print_comment (output);
  return ok;
}

/* Run the line LINE of PROGRAMS in the sessions it names.  Returns the
   number of failures.  */
static int
run_line (char *line)
{
  line[strcspn (line, "\n")] = '\0';
  if (line[0] == '\0' || line[0] == '#')
    return 0;
  char *command = strchr (line, ' ');
  if (command == NULL)
    {
      printf ("# %s: no command in '%s'\n", PROGRAMS, line);
      return 1;
    }
  *command++ = '\0';
  if (strcmp (line, "root") == 0)
    return !run_enforced ("root", command);
  if (strcmp (line, "all") == 0)
    return !run_enforced ("tester", command) + !run_enforced ("root", command);
  printf ("# %s: no user '%s'\n", PROGRAMS, line);
  return 1;
}

int
main (void)
{
  char line[1024];
  int failures = 0, lines = 0;
  FILE *programs = fopen (PROGRAMS, "re");
  if (programs == NULL)
    {
      printf ("# %s: %m\n", PROGRAMS);
      return 1;
    }
  while (fgets (line, sizeof line, programs) != NULL)
    {
      lines += line[0] != '#' && line[0] != '\n';
      failures += run_line (line);
    }
  fclose (programs);
  if (lines == 0)
    {
      printf ("# %s lists no program\n", PROGRAMS);
      return 1;
    }
  return failures == 0 ? 0 : 1;
}
