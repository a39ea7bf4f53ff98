/* What each case must end in, and whether it did.  */
#include "matrix.h"

#include <string.h>
#include <sys/wait.h>

/* The dynamic linker's words for a refusal and an audit report.  */
#define POLICY_TEXT "not allowed by the system policy"
#define AUDIT_TEXT "(audit mode: loaded anyway)"

static const char *const outcome_names[] = {
  [LOADED] = "loaded",
  [REFUSED] = "refused",
  [MAP_DENIED] = "not mapped (noexec mount)",
  [NOT_LOADABLE] = "not loadable",
  [EXEC_DENIED] = "program not executed",
  [NO_MEMFD] = "memfd not created",
};

const char *
outcome_name (enum outcome o)
{
  return outcome_names[o];
}

static bool
enforcing (enum mode m)
{
  return m == MODE_ENFORCE || m == MODE_LOCKED;
}

enum outcome
expected_outcome (const struct path *path, enum situation s, enum mode m)
{
  if (s == MEMFD_EXEC)
    return NO_MEMFD;
  if (path->execs_from_directory && (s == NOEXEC_0755 || s == LANDLOCK_DENIED))
    return EXEC_DENIED;
  if (s == DIRECTORY || s == FIFO || s == DEV_NULL)
    return NOT_LOADABLE;
  if (enforcing (m) && situation_fails_check (s))
    return REFUSED;
  if (s == NOEXEC_0755)
    return MAP_DENIED;
  return LOADED;
}

static bool
has (const char *output, const char *text)
{
  return strstr (output, text) != NULL;
}

/* The part of the verdict that depends on the outcome.  */
static bool
outcome_seen (enum outcome expected, const struct path *path, bool marked,
              const char *output, const char **why)
{
  switch (expected)
    {
    case LOADED:
      *why = "the payload left no mark";
      return marked;
    case REFUSED:
      *why = "no refusal was reported";
      return !marked && (has (output, POLICY_TEXT)
                         || (path->silent_refusal != NULL
                             && has (output, path->silent_refusal)));
    case MAP_DENIED:
      *why = "mapping did not fail";
      return !marked && (path->silent_refusal != NULL
                         || has (output, "failed to map segment")
                         || has (output, "Operation not permitted"));
    case NOT_LOADABLE:
      *why = "the payload left a mark";
      return !marked;
    case EXEC_DENIED:
      *why = "the program was not refused by the kernel";
      return !marked && has (output, "Permission denied");
    case NO_MEMFD:
      *why = "memfd_create(MFD_EXEC) was not refused";
      return !marked && has (output, "memfd_create: Permission denied");
    }
  return false;
}

bool
outcome_matches (enum outcome expected, const struct path *path,
                 enum situation s, enum mode m, bool marked,
                 const char *output, int status, const char **why)
{
  if (WIFSIGNALED (status))
    {
      *why = "the process was killed by a signal";
      return false;
    }
  if (!outcome_seen (expected, path, marked, output, why))
    return false;
  /* Nothing but a refusal or audit mode may talk about the policy.  */
  if (expected != REFUSED && m != MODE_AUDIT && has (output, POLICY_TEXT))
    {
      *why = "a refusal was reported";
      return false;
    }
  if (m == MODE_AUDIT && expected == LOADED && situation_fails_check (s)
      && !has (output, AUDIT_TEXT))
    {
      *why = "audit mode did not report the file";
      return false;
    }
  if (m == MODE_LOCKED && has (output, "unlock:")
      && !has (output, "unlock: refused"))
    {
      *why = "the locked bit could be cleared";
      return false;
    }
  return true;
}
