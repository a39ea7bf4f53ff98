/* The script matrix's securebits and its oracle: what each case must end
   in, and whether a run did.  */
#include "script-matrix.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "seccomp.h"
#include "securebits.h"

#define BOTH_BITS (SECBIT_EXEC_RESTRICT_FILE | SECBIT_EXEC_DENY_INTERACTIVE)

/* The bits set in the kernel, and those the interpreter must enforce
   (the same, but where it cannot read them: all).  */
static const struct
{
  const char *name;
  long bits;
  long enforced;
} bits_table[BITS_COUNT] = {
  [BITS_CLEAR] = { "bits clear", 0 },
  [BITS_AUDIT] = { "bits clear, audit mode", 0 },
  [BITS_UNREADABLE] = { "bits clear, securebits unreadable", 0, BOTH_BITS },
  [BITS_RESTRICT] = { "0x100", SECBIT_EXEC_RESTRICT_FILE },
  [BITS_DENY] = { "0x400", SECBIT_EXEC_DENY_INTERACTIVE },
  [BITS_BOTH] = { "0x500", SECBIT_EXEC_RESTRICT_FILE
                             | SECBIT_EXEC_DENY_INTERACTIVE },
  [BITS_RESTRICT_LOCKED] = { "0x300 locked", SECBIT_EXEC_RESTRICT_FILE
                                               | SECBIT_EXEC_RESTRICT_FILE_LOCKED },
  [BITS_ALL_LOCKED] = { "0xf00 locked", SECBIT_EXEC_RESTRICT_FILE
                                          | SECBIT_EXEC_RESTRICT_FILE_LOCKED
                                          | SECBIT_EXEC_DENY_INTERACTIVE
                                          | SECBIT_EXEC_DENY_INTERACTIVE_LOCKED },
};

static const char *const outcome_names[] = {
  [SCRIPT_RAN] = "runs",
  [SCRIPT_AUDITED] = "runs, audit reports it",
  [SCRIPT_REFUSED] = "refused",
  [SCRIPT_SKIPPED] = "skipped, the shell goes on",
  [SCRIPT_DENIED] = "denied: not from a file",
  [SCRIPT_IGNORED] = "denied: not from a file, the shell goes on",
};

/* What the interpreters say of NAME (dash's and python3's words, ld.so's
   for the policy).  */
#define REFUSAL "cannot run %s: not allowed by the system policy: Permission denied"
#define DENIAL "cannot run %s: not allowed by the system policy: commands must come from a file"
#define AUDIT "audit: %s: would not be allowed by the system policy"

const char *
script_bits_name (enum script_bits b)
{
  return bits_table[b].name;
}

/* The bits the interpreter must enforce in B.  */
static long
enforced_bits (enum script_bits b)
{
  return bits_table[b].enforced != 0 ? bits_table[b].enforced
                                     : bits_table[b].bits;
}

int
script_bits_enter (enum script_bits b)
{
  if (set_exec_securebits (bits_table[b].bits) != 0)
    return -1;
  return b == BITS_UNREADABLE ? forge_securebits_error (EPERM) : 0;
}

const char *
script_outcome_name (enum script_outcome o)
{
  return outcome_names[o];
}

bool
script_case_applies (const struct script_route *route, enum situation s,
                     enum script_bits b, const struct case_user *user)
{
  (void) b;
  if (route->breadth != BREADTH_FULL && user->uid == 0)
    return false;
  if (route->input == INPUT_STRING || route->input == INPUT_ENVIRONMENT
      || route->input == INPUT_PIPE || route->input == INPUT_NAMED_PIPE)
    return s == EXEC_0755;
  if (route->found_by_name && situation_is_memfd (s))
    return false;
  if (route->breadth == BREADTH_SHORT)
    return s == EXEC_0755 || s == EXEC_0644 || s == NOEXEC_0755;
  if (route->breadth == BREADTH_EXECUTABLE)
    return s == EXEC_0755 || s == NOEXEC_0755;
  return s == EXEC_0755 || s == EXEC_0644 || s == NOEXEC_0755
         || s == MEMFD_NOEXEC || s == LANDLOCK_DENIED;
}

enum script_outcome
script_expected (const struct script_route *route, enum situation s,
                 enum script_bits b)
{
  long bits = enforced_bits (b);
  bool restrict_file = bits & SECBIT_EXEC_RESTRICT_FILE;
  bool deny = bits & SECBIT_EXEC_DENY_INTERACTIVE;
  bool fails = situation_fails_check (s);
  bool audit = b == BITS_AUDIT;

  if (route->denied_as != NULL && deny)
    return route->input == INPUT_ENVIRONMENT ? SCRIPT_IGNORED : SCRIPT_DENIED;
  switch (route->input)
    {
    case INPUT_FILE:
      if (restrict_file && fails)
        return SCRIPT_REFUSED;
      break;
    case INPUT_STARTUP:
      if (restrict_file && fails)
        return SCRIPT_SKIPPED;
      break;
    case INPUT_STDIN_FILE:
      if ((restrict_file || deny) && fails)
        return SCRIPT_REFUSED;
      break;
    case INPUT_NAMED_PIPE:
      if (restrict_file || deny)
        return SCRIPT_REFUSED;
      return audit ? SCRIPT_AUDITED : SCRIPT_RAN;
    case INPUT_PIPE:
      if (deny)
        return SCRIPT_REFUSED;
      return audit ? SCRIPT_AUDITED : SCRIPT_RAN;
    case INPUT_STRING:
    case INPUT_ENVIRONMENT:
      return audit ? SCRIPT_AUDITED : SCRIPT_RAN;
    }
  return audit && (fails || route->denied_as != NULL) ? SCRIPT_AUDITED
                                                       : SCRIPT_RAN;
}

/* Whether OUTPUT has the message FORMAT says of NAME.  */
static bool
says (const char *output, const char *format, const char *name)
{
  char message[1024];
  snprintf (message, sizeof message, format, name);
  return strstr (output, message) != NULL;
}

bool
script_outcome_matches (enum script_outcome expected, const char *name,
                        bool marked, const char *output, int status,
                        const char **why)
{
  bool exited_0 = WIFEXITED (status) && WEXITSTATUS (status) == 0;
  switch (expected)
    {
    case SCRIPT_RAN:
      *why = !marked ? "the code did not run"
             : !exited_0 ? "the interpreter failed"
             : says (output, REFUSAL, name) || says (output, AUDIT, name)
                 ? "the interpreter spoke of the policy"
                 : NULL;
      break;
    case SCRIPT_AUDITED:
      *why = !marked ? "the code did not run"
             : !exited_0 ? "the interpreter failed"
             : !says (output, AUDIT, name) ? "the audit mode did not report it"
                                           : NULL;
      break;
    case SCRIPT_REFUSED:
      *why = marked ? "the code ran"
             : exited_0 ? "the interpreter exited 0"
             : !says (output, REFUSAL, name)
                 ? "no refusal naming the file and the kernel's reason"
                 : NULL;
      break;
    case SCRIPT_SKIPPED:
      *why = marked ? "the code ran"
             : !exited_0 ? "the shell did not go on"
             : !says (output, REFUSAL, name)
                 ? "no refusal naming the file and the kernel's reason"
                 : NULL;
      break;
    case SCRIPT_DENIED:
      *why = marked ? "the code ran"
             : exited_0 ? "the interpreter exited 0"
             : !says (output, DENIAL, name) ? "no denial saying why" : NULL;
      break;
    case SCRIPT_IGNORED:
      *why = marked ? "the code ran"
             : !exited_0 ? "the shell did not go on"
             : !says (output, DENIAL, name) ? "no denial saying why" : NULL;
      break;
    }
  return *why == NULL;
}
