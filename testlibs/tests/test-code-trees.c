/* The image's code trees cover what its interpreters load as code.  The
   recorded trace (/usr/share/checkexec/code-trees.trace, made by make
   code-trees with Debian's modes) names the files they loaded: each of the
   system's (testlibs/code-trace says which are) is in the image (with the
   package the trace installs installed again), lies in a code tree, has
   execute bits and passes the check; each directory of perl's search path
   it names is the root of a code tree.  Then the trace's
   workload (code-trace) runs again here, with the interpreters' audit
   modes: it must run to the end, report the test user's ~/.profile (or
   the audit modes saw nothing), and each file of the system it reports
   must lie in a code tree.  And every tree is root's alone.  One TAP result each.  Run as root.
   Usage: test-code-trees [EXPECTED-DIR] (unused)  */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "code-trees.h"
#include "command.h"
#include "exec-check.h"
#include "tap.h"

#define TRACE "/usr/share/checkexec/code-trees.trace"
#define CODE_TRACE "/usr/lib/checkexec/code-trace"
#define PROBE "checkexec-script-probe"
#define PROBE_DEB "/usr/lib/checkexec/payload/" PROBE ".deb"
#define MAX_REPORTED 20
/* A file the audit modes always report: the test user's login shell reads
   it from the noexec home.  */
#define ALWAYS_REPORTED "/home/tester/.profile"

/* One line of a trace: "[trace ]file=... real=... why=... owner=...
   system=yes|no module_root=...".  */
struct fact
{
  char real[512];
  char owner[128];
  char system[8];
};

/* The value of KEY in the fact line LINE, into VALUE; "-" when absent.  */
static void
fact_value (const char *line, const char *key, char *value, size_t len)
{
  char needle[64];
  snprintf (needle, sizeof needle, " %s=", key);
  const char *start = strstr (line, needle);
  if (start == NULL)
    {
      snprintf (value, len, "-");
      return;
    }
  start += strlen (needle);
  snprintf (value, len, "%.*s", (int) strcspn (start, " \n"), start);
}

/* Parse LINE (its leading "trace " dropped).  Returns false for a line
   that is no fact.  */
static bool
parse_fact (const char *line, struct fact *fact)
{
  char padded[2048];
  if (strncmp (line, "trace ", 6) == 0)
    line += 6;
  if (strncmp (line, "file=", 5) != 0)
    return false;
  snprintf (padded, sizeof padded, " %s", line);
  fact_value (padded, "real", fact->real, sizeof fact->real);
  fact_value (padded, "owner", fact->owner, sizeof fact->owner);
  fact_value (padded, "system", fact->system, sizeof fact->system);
  return true;
}

/* Whether the trace's PATH is covered: a directory (a line of perl's
   search path) must be the root of a code tree, a file one a tree names.  */
static bool
traced_path_covered (const struct code_tree *trees, int count,
                     const char *path)
{
  struct stat st;
  if (stat (path, &st) != 0 || !S_ISDIR (st.st_mode))
    return code_trees_cover (trees, count, path);
  for (int i = 0; i < count; i++)
    if (strcmp (trees[i].root, path) == 0 && trees[i].pattern_count > 0)
      return true;
  return false;
}

/* What the recorded trace's files of the system are found to be.  */
struct coverage
{
  int files;
  int missing;
  int uncovered;
  int refused;
};

/* Check the file PATH of the trace against the code trees.  */
static void
check_traced_file (const char *path, const struct code_tree *trees,
                   int count, struct coverage *cov)
{
  struct stat st;
  int error;
  cov->files++;
  if (stat (path, &st) != 0)
    {
      tap_note ("not in the image: %s (run make code-trees)", path);
      cov->missing++;
      return;
    }
  if (!traced_path_covered (trees, count, path))
    {
      tap_note ("in no code tree: %s", path);
      cov->uncovered++;
    }
  if (S_ISDIR (st.st_mode))
    return;
  if ((st.st_mode & 0111) != 0111 || (error = exec_check_path (path)) != 0)
    {
      tap_note ("mode %04o, check %s: %s", (unsigned) st.st_mode & 07777,
                (st.st_mode & 0111) == 0111 ? strerror (error) : "-", path);
      cov->refused++;
    }
}

/* Run dpkg with the arguments ARG and NAME; true if it succeeds.  */
static bool
dpkg (const char *arg, const char *name)
{
  char output[16384];
  char *const argv[] = { "/usr/bin/dpkg", (char *) arg, (char *) name, NULL };
  if (run_command (argv, output, sizeof output) == 0)
    return true;
  tap_note ("dpkg %s %s failed:", arg, name);
  print_comment (output);
  return false;
}

/* The recorded trace's results, with the trace's package installed.  */
static void
check_recorded_trace (const struct code_tree *trees, int count)
{
  char line[2048];
  struct fact fact;
  struct coverage cov = { 0 };
  bool installed = dpkg ("-i", PROBE_DEB);
  FILE *trace = fopen (TRACE, "re");
  if (trace == NULL)
    tap_note ("%s: %m", TRACE);
  while (trace != NULL && fgets (line, sizeof line, trace) != NULL)
    {
      if (parse_fact (line, &fact) && strcmp (fact.system, "yes") == 0)
        check_traced_file (fact.real, trees, count, &cov);
    }
  if (trace != NULL)
    fclose (trace);
  if (installed)
    dpkg ("--purge", PROBE);
  tap_note ("%d files of the system in the trace: %d not in the image, "
            "%d in no code tree, %d refused", cov.files, cov.missing,
            cov.uncovered, cov.refused);
  /* A boot loads far more than 100 modules of the standard library.  */
  tap_result (cov.files > 100, "the recorded trace names files of the "
              "system");
  tap_result (cov.files > 0 && cov.missing == 0,
              "every file of the trace is in the image");
  tap_result (cov.files > 0 && cov.uncovered == 0,
              "every file of the trace lies in a code tree");
  tap_result (cov.files > 0 && cov.refused == 0,
              "every file of the trace is executable and passes the check");
}

/* The trace's workload again, with the audit modes.  A file of the
   system in a code tree is reported only while dpkg runs the maintainer
   scripts of its package (fix-library-modes runs when dpkg is done): that
   is noted; one outside the code trees fails.  */
static void
check_workload (const struct code_tree *trees, int count)
{
  static char output[1 << 20];
  char *const argv[] = { CODE_TRACE, NULL };
  int status = run_command (argv, output, sizeof output);
  int reports = 0, of_system = 0, outside = 0;
  bool control = false;
  struct fact fact;
  for (char *line = output; *line != '\0';)
    {
      char *end = strchrnul (line, '\n');
      char saved = *end;
      *end = '\0';
      if (strncmp (line, "trace ", 6) == 0 && parse_fact (line, &fact))
        {
          reports++;
          control |= strcmp (fact.real, ALWAYS_REPORTED) == 0;
          if (strcmp (fact.system, "yes") == 0)
            {
              bool covered = traced_path_covered (trees, count, fact.real);
              outside += !covered;
              if (of_system++ < MAX_REPORTED)
                tap_note ("reported: %s (package %s), %s", fact.real,
                          fact.owner, covered ? "in a code tree"
                                              : "in no code tree");
            }
        }
      *end = saved;
      line = saved == '\0' ? end : end + 1;
    }
  if (status != 0)
    {
      tap_note ("%s exited with status %d:", CODE_TRACE, status);
      print_comment (output);
    }
  tap_note ("the audit modes reported %d files, %d of the system, %d of "
            "them in no code tree", reports, of_system, outside);
  tap_result (status == 0, "the trace's workload runs to the end with the "
              "audit modes");
  tap_result (control, "the audit modes report the test user's ~/.profile "
              "(on the noexec home)");
  tap_result (status == 0 && control && outside == 0, "with the audit "
              "modes, every file of the system the workload loads lies in a "
              "code tree");
}

/* Every tree is root's alone.  */
static void
check_tree_owners (const struct code_tree *trees, int count)
{
  int others = 0;
  for (int i = 0; i < count; i++)
    if (!code_tree_is_roots (trees[i].root))
      {
        tap_note ("not root's alone: %s", trees[i].root);
        others++;
      }
  tap_result (count > 0 && others == 0, "every code tree, and each "
              "directory above it, is root's and writable by root only");
}

int
main (void)
{
  struct code_tree *trees;
  int count = code_trees_read (CODE_TREES, &trees);
  tap_plan (8);
  if (count < 0)
    {
      tap_note ("%s: %m", CODE_TREES);
      count = 0;
      trees = NULL;
    }
  check_tree_owners (trees, count);
  check_recorded_trace (trees, count);
  check_workload (trees, count);
  return tap_failures () == 0 ? 0 : 1;
}
