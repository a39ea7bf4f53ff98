/* The script matrix, beside the load matrix (matrix/): every way of getting
   an interpreter to run code (a route) x the file situations of the load
   matrix x the exec securebits x root and the test user, each case judged
   on whether the payload's code ran and what the interpreter said.  */
#ifndef CHECKEXEC_SCRIPT_MATRIX_H
#define CHECKEXEC_SCRIPT_MATRIX_H

#include <stdbool.h>
#include <stddef.h>

#include "case-user.h"
#include "matrix.h"

/* How the payload's code reaches the interpreter.  */
enum script_input
{
  INPUT_FILE,        /* a file it is given or sources: checked */
  INPUT_STARTUP,     /* a start-up file: refused, it is skipped */
  INPUT_STDIN_FILE,  /* standard input redirected from the file */
  INPUT_NAMED_PIPE,  /* a pipe named as the script (/dev/stdin) */
  INPUT_PIPE,        /* standard input from a pipe */
  INPUT_STRING,      /* the code itself as an argument (-c) */
  INPUT_ENVIRONMENT, /* code an environment variable carries */
};

/* The exec securebits of the case (and the interpreter's audit mode).  */
enum script_bits
{
  BITS_CLEAR,
  BITS_AUDIT,            /* clear, the interpreter's audit mode on */
  BITS_RESTRICT,         /* 0x100 SECBIT_EXEC_RESTRICT_FILE */
  BITS_DENY,             /* 0x400 SECBIT_EXEC_DENY_INTERACTIVE */
  BITS_BOTH,             /* 0x500 */
  BITS_RESTRICT_LOCKED,  /* 0x300 */
  BITS_ALL_LOCKED,       /* 0xf00 */
  BITS_UNREADABLE,       /* clear, but a seccomp filter fails
                            PR_GET_SECUREBITS: enforced as 0x500 */
  BITS_COUNT
};

/* What a case must end in.  */
enum script_outcome
{
  SCRIPT_RAN,      /* the code ran, nothing said */
  SCRIPT_AUDITED,  /* the code ran; the audit mode reported it */
  SCRIPT_REFUSED,  /* the file (or pipe) failed the check: refused */
  SCRIPT_SKIPPED,  /* a start-up file was refused; the shell went on */
  SCRIPT_DENIED,   /* SECBIT_EXEC_DENY_INTERACTIVE refused code not in a file */
  SCRIPT_IGNORED,  /* ... code from the environment: the shell goes on */
};

/* The most arguments and extra environment entries of a route.  */
#define SCRIPT_ARGS 6
#define SCRIPT_ENV 3

/* Which cases of a route run (script_case_applies).  */
enum script_breadth
{
  BREADTH_FULL,   /* every situation, root and the test user */
  BREADTH_SHORT,  /* the 0755, 0644 and noexec files, the test user */
  BREADTH_EXECUTABLE, /* the same without the 0644 file, which the
                         interpreter itself will not run (perl -S) */
};

struct script_route
{
  const char *name;
  enum script_input input;
  /* The payload (in SCRIPT_PAYLOADS) and its name in the case directory;
     a route that finds it by name in a directory cannot take a memfd.  */
  const char *payload;
  const char *file_name;
  bool found_by_name;
  const char *audit_env;  /* the interpreter's audit switch */
  /* The name a refusal gives the code: NULL for the payload's file name
     (@FILE@), else this (for standard input).  */
  const char *refused_as;
  /* What SECBIT_EXEC_DENY_INTERACTIVE refuses the whole route as (an
     interactive shell, -c), or NULL.  */
  const char *denied_as;
  enum script_breadth breadth;
  /* The command and extra environment entries, with @FILE@ for the
     payload's name, @DIR@ for its directory and @CODE@ for its text.  */
  const char *argv[SCRIPT_ARGS];
  const char *env[SCRIPT_ENV];
};

extern const struct script_route script_routes[];
extern const size_t script_route_count;

/* The payloads the routes run (each leaves the mark CHECKEXEC_MARK
   names), and the drivers some routes go through.  */
#define SCRIPT_PAYLOADS "/usr/lib/checkexec/payload/"
#define SCRIPT_DRIVERS "/usr/lib/checkexec/script-matrix"

const char *script_bits_name (enum script_bits b);
/* In the child: set the case's securebits (and filter).  Returns 0 or
   -1.  */
int script_bits_enter (enum script_bits b);

/* Whether the case is run: a route that takes its code from no file runs
   in one situation (the 0755 file, which it does not read), a route that finds its file by name
   takes no memfd, a short route runs as the test user in three situations
   (see enum script_breadth), and only the situations of the issue are
   tried.  */
bool script_case_applies (const struct script_route *route, enum situation s,
                          enum script_bits b, const struct case_user *user);

enum script_outcome script_expected (const struct script_route *route,
                                     enum situation s, enum script_bits b);
const char *script_outcome_name (enum script_outcome o);
/* Whether the observed run matches EXPECTED: NAME is what a refusal of
   the payload calls it, MARKED whether the payload left its mark, OUTPUT
   what the interpreter printed, STATUS its wait status.  A refusal or an
   audit report of another file (a system start-up file) does not count.
   On a mismatch, WHY says what was wrong.  */
bool script_outcome_matches (enum script_outcome expected, const char *name,
                             bool marked, const char *output, int status,
                             const char **why);

/* As root, once: the directories the cases need, and the payload's text.
   Returns 0, or -1 after printing why.  */
int script_cases_prepare (void);

/* Set up, run as USER and judge one case in the case directory CASE_DIR;
   OUTPUT (LEN bytes) gets what it printed.  Returns whether it matched
   the expected outcome, with WHY set when not.  */
bool script_case_run (const char *case_dir, const struct script_route *route,
                      enum situation s, enum script_bits b,
                      const struct case_user *user, char *output, size_t len,
                      const char **why);

#endif
