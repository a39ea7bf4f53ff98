/* What each case must end in, and whether it did.  Every verdict names
   the layer that decided: ld.so's check (its LD_DEBUG=execcheck line for
   the payload), the mount or Exec Restrict (a mapping that failed), the
   kernel's exec, the memfd sysctl or Yama.  */
#include "matrix.h"

#include <stdio.h>
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
  [ALL_REFUSED] = "every object refused",
  [TRACE_DENIED] = "tracing refused",
  [KERNEL_DENIED] = "not mapped (Exec Restrict)",
};

const char *
outcome_name (enum outcome o)
{
  return outcome_names[o];
}

static bool
enforcing (enum policy m)
{
  return m == POLICY_ENFORCE || m == POLICY_LOCKED
         || m == POLICY_SECUREBITS_UNREADABLE;
}

enum outcome
expected_outcome (const struct route *route, enum situation s, enum policy m)
{
  if (m == POLICY_TRACED)
    return TRACE_DENIED;
  if (policy_check_error (m) != 0)
    return ALL_REFUSED;
  if (policy_forges_success (m))
    return situation_fails_check (s) ? KERNEL_DENIED : LOADED;
  if (s == MEMFD_EXEC)
    return NO_MEMFD;
  if (route->execs_from_directory && (s == NOEXEC_0755 || s == LANDLOCK_DENIED))
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

/* Whether one line of OUTPUT contains FIRST and, after it, SECOND.  */
static bool
has_line (const char *output, const char *first, const char *second)
{
  for (const char *line = output; *line != '\0';)
    {
      const char *end = strchrnul (line, '\n');
      const char *hit = strstr (line, first);
      if (hit != NULL && hit < end)
        {
          const char *next = strstr (hit + strlen (first), second);
          if (next != NULL && next + strlen (second) <= end)
            return true;
        }
      line = *end == '\0' ? end : end + 1;
    }
  return false;
}

/* ld.so's check gave the payload FILE (as ROUTE names it) VERDICT.  */
static bool
check_said (const struct route *route, const char *file, const char *verdict,
            const char *output)
{
  const char *name = route->loaded_as != NULL ? route->loaded_as : file;
  const char *slash = strrchr (name, '/');
  char tail[512];
  snprintf (tail, sizeof tail, "/%s verdict=%s",
            slash != NULL ? slash + 1 : name, verdict);
  return has_line (output, "exec check: file=", tail);
}

/* ld.so opened FILE and went on to map it, so nothing refused it before
   the mapping: LD_DEBUG=libs shows ld.so trying FILE and LD_DEBUG=files
   the link map it then generates (under the name it was asked for), with
   no other candidate tried in between.  A name that needs no search
   (gconv's full path) is named in the files line itself.  */
static bool
map_attempted (const char *file, const char *output)
{
  char text[512];
  snprintf (text, sizeof text, "file=%s [", file);
  if (has_line (output, text, "generating link map"))
    return true;
  snprintf (text, sizeof text, "trying file=%s\n", file);
  const char *tried = strstr (output, text);
  if (tried == NULL)
    return false;
  const char *next_try = strstr (tried + strlen (text), "trying file=");
  const char *map = strstr (tried, "generating link map");
  return map != NULL && (next_try == NULL || map < next_try);
}

/* ld.so tried to map FILE and failed: its error, or for a route that says
   nothing, the attempt.  */
static bool
map_failed (const struct route *route, const char *file, const char *output)
{
  return route->silent_refusal != NULL ? map_attempted (file, output)
                                      : has (output, "failed to map segment");
}

/* The part of the verdict that depends on the outcome.  */
static bool
outcome_seen (enum outcome expected, const struct route *route, enum policy m,
              const char *file, bool marked, const char *output,
              const char **why)
{
  static char text[128];
  switch (expected)
    {
    case LOADED:
      *why = "the payload left no mark";
      return marked;
    case REFUSED:
      *why = "ld.so's check did not refuse the payload";
      return !marked && check_said (route, file, "refused", output)
             && (has (output, POLICY_TEXT)
                 || (route->silent_refusal != NULL
                     && has (output, route->silent_refusal)));
    case MAP_DENIED:
      *why = "mapping the payload did not fail";
      return !marked && map_failed (route, file, output);
    case KERNEL_DENIED:
      /* The forged "allowed" must have reached ld.so.  */
      if (m == POLICY_CHECK_FORGED
          && !check_said (route, file, "allowed", output))
        {
          *why = "ld.so's check did not allow the payload";
          return false;
        }
      *why = "mapping the payload did not fail";
      return !marked && map_failed (route, file, output);
    case NOT_LOADABLE:
      *why = "the payload left a mark";
      return !marked;
    case EXEC_DENIED:
      *why = "the program was not refused by the kernel";
      return !marked && has (output, "Permission denied");
    case NO_MEMFD:
      *why = "memfd_create(MFD_EXEC) was not refused";
      return !marked && has (output, "memfd_create: Permission denied");
    case ALL_REFUSED:
      snprintf (text, sizeof text, POLICY_TEXT ": %s",
                strerror (policy_check_error (m)));
      *why = "ld.so did not refuse on the forged error";
      return !marked && has (output, text);
    case TRACE_DENIED:
      *why = "the kernel did not refuse the tracer";
      return !marked && has_line (output, "ptrace", "Operation not permitted");
    }
  return false;
}

/* What the policy itself must have made ld.so or the case say.  */
static bool
policy_seen (enum policy m, const char *output, const char **why)
{
  if (policy_is_locked (m)
      && (!has (output, "unlock: refused")
          || has (output, "unlock: succeeded")))
    {
      *why = "the locked bit could be cleared";
      return false;
    }
  if (m == POLICY_SECUREBITS_UNREADABLE
      && !has (output, "cannot read the securebits"))
    {
      *why = "ld.so did not say that it could not read the securebits";
      return false;
    }
  if ((m == POLICY_CHECK_EINVAL || m == POLICY_CHECK_ENOSYS)
      && !has (output, "the kernel did not check executability"))
    {
      *why = "ld.so did not say that the kernel did not check";
      return false;
    }
  return true;
}

bool
outcome_matches (enum outcome expected, const struct route *route,
                 enum situation s, enum policy m, const char *file,
                 bool marked, const char *output, int status,
                 const char **why)
{
  if (WIFSIGNALED (status))
    {
      *why = "the process was killed by a signal";
      return false;
    }
  if (!outcome_seen (expected, route, m, file, marked, output, why)
      || !policy_seen (m, output, why))
    return false;
  /* Nothing but a refusal or audit mode may talk about the policy.  */
  if (expected != REFUSED && expected != ALL_REFUSED && m != POLICY_AUDIT
      && has (output, POLICY_TEXT))
    {
      *why = "a refusal was reported";
      return false;
    }
  if (m == POLICY_AUDIT && expected == LOADED && situation_fails_check (s)
      && !has (output, AUDIT_TEXT))
    {
      *why = "audit mode did not report the file";
      return false;
    }
  return true;
}
