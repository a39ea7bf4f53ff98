/* The service the image starts with both exec securebits set and locked
   (checkexec-files-only.service): it is up, its main process's securebits
   read from outside (the SecBits line of /proc/PID/status, linux/0011)
   are SECBIT_EXEC_RESTRICT_FILE and SECBIT_EXEC_DENY_INTERACTIVE with
   their locks, and what its program reported to the journal shows the
   second bit refusing commands that come from no file (sh -c, bash -c,
   python3 -c, perl -e, a script piped to each), the first refusing a
   script on a noexec mount (to sh and to perl), each with the interpreter's message, and a script file
   running with those bits.  One TAP result each.  Run as root.
   Usage: test-files-only-service [EXPECTED-DIR] (unused)  */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "securebits.h"
#include "tap.h"

#define UNIT "checkexec-files-only.service"
#define BOTH_LOCKED                                                           \
  (SECBIT_EXEC_RESTRICT_FILE | SECBIT_EXEC_RESTRICT_FILE_LOCKED               \
   | SECBIT_EXEC_DENY_INTERACTIVE | SECBIT_EXEC_DENY_INTERACTIVE_LOCKED)

/* What the service's program must have reported of one attempt: its
   result, and a text its message must contain.  */
struct expected_attempt
{
  const char *name;
  const char *result;
  const char *message;
};

static const struct expected_attempt attempts[] = {
  { "sh -c", "refused", "cannot run -c: not allowed by the system policy" },
  { "python3 -c", "refused", "not allowed by the system policy" },
  { "sh from a pipe", "refused", "not allowed by the system policy" },
  { "python3 from a pipe", "refused", "not allowed by the system policy" },
  { "bash -c", "refused", "cannot run -c: not allowed by the system policy" },
  { "perl -e", "refused", "cannot run -e: not allowed by the system policy" },
  { "bash from a pipe", "refused", "not allowed by the system policy" },
  { "perl from a pipe", "refused",
    "cannot run standard input: not allowed by the system policy" },
  { "a script it wrote in /tmp", "refused",
    "not allowed by the system policy: Permission denied" },
  { "perl, a script it wrote in /tmp", "refused",
    "not allowed by the system policy: Permission denied" },
  { "python3 script file", "ran",
    "python3 script file ran, securebits=0xf00" },
};
#define ATTEMPTS (sizeof attempts / sizeof attempts[0])

/* The value of systemctl show -p PROPERTY for the unit, in VALUE.  */
static int
unit_property (const char *property, char *value, size_t len)
{
  char *const argv[] = { "/usr/bin/systemctl", "show", "--value", "-p",
                         (char *) property, UNIT, NULL };
  if (run_command (argv, value, len) != 0)
    return -1;
  value[strcspn (value, "\n")] = '\0';
  return 0;
}

/* The line of the journal REPORT about the attempt NAME, or NULL.  */
static const char *
attempt_line (const char *report, const char *name, char *line, size_t len)
{
  char key[128];
  snprintf (key, sizeof key, "attempt=%s\t", name);
  const char *at = strstr (report, key);
  if (at == NULL)
    return NULL;
  snprintf (line, len, "%.*s", (int) strcspn (at, "\n"), at);
  return line;
}

/* One result: the report has the attempt with its result and message.  */
static void
check_attempt (const char *report, const struct expected_attempt *want)
{
  char line[1024], result[64];
  bool ok = false;
  snprintf (result, sizeof result, "\tresult=%s\t", want->result);
  if (attempt_line (report, want->name, line, sizeof line) == NULL)
    tap_note ("the service reported no attempt '%s'", want->name);
  else
    {
      tap_note ("%s", line);
      ok = strstr (line, result) != NULL
           && strstr (line, want->message) != NULL;
      /* The service's own file in /tmp has a name mktemp made.  */
      if (strstr (line, "/tmp/") != NULL)
        ok = ok && strstr (line, "/tmp/checkexec-files-only.") != NULL
             && strstr (line, "/tmp/checkexec-files-only.sh") == NULL;
    }
  tap_result (ok, "%s %s", want->name, want->result);
}

int
main (void)
{
  static char report[65536];
  char state[256], pid[64];
  tap_plan (2 + ATTEMPTS);
  bool active = unit_property ("ActiveState", state, sizeof state) == 0
                && strcmp (state, "active") == 0;
  tap_note ("ActiveState=%s", state);
  tap_result (active, "the image started it");
  long bits = -1;
  if (unit_property ("MainPID", pid, sizeof pid) == 0 && atol (pid) > 0)
    bits = secbits_of_process (atol (pid));
  tap_note ("MainPID=%s SecBits=%lx", pid, bits);
  tap_result (bits >= 0 && (bits & BOTH_LOCKED) == BOTH_LOCKED,
              "both exec securebits set and locked");
  char *const journal[] = { "/usr/bin/journalctl", "-b", "-o", "cat",
                            "--no-pager", "-u", UNIT, NULL };
  if (run_command (journal, report, sizeof report) != 0)
    tap_note ("journalctl -u " UNIT " failed: %s", report);
  for (size_t i = 0; i < ATTEMPTS; i++)
    check_attempt (report, &attempts[i]);
  return tap_failures () == 0 ? 0 : 1;
}
