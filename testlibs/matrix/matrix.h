/* The library-loading matrix: every way of getting ld.so to load an object
   (a route) x every kind of file it is given (a situation) x every policy of
   the executability check, for root and the test user.  */
#ifndef CHECKEXEC_MATRIX_H
#define CHECKEXEC_MATRIX_H

#include <stdbool.h>
#include <stddef.h>

/* Where the payload is and what it is.  */
enum situation
{
  EXEC_0755,        /* mode 0755 on a mount that allows execution */
  EXEC_0644,        /* mode 0644 there */
  NOEXEC_0755,      /* mode 0755 on a noexec mount */
  MEMFD_EXEC,       /* a memfd created with MFD_EXEC */
  MEMFD_NOEXEC,     /* a memfd created with MFD_NOEXEC_SEAL */
  LANDLOCK_DENIED,  /* mode 0755, but a Landlock ruleset denies execution */
  DIRECTORY,        /* a directory named as the object */
  FIFO,             /* a fifo named as the object */
  DEV_NULL,         /* /dev/null named as the object */
  SITUATION_COUNT
};

/* How the check is set up for the loading process.  From POLICY_LOCKED on,
   the bit is set and locked, and the policies after it are the attacks of a
   user in the enforced session on the answers ld.so gets: forged errors
   (ld.so fails closed) and forged successes (the kernel refuses the
   mapping).  */
enum policy
{
  POLICY_CLEAR,       /* securebits clear, tunable unset: stock behaviour */
  POLICY_AUDIT,       /* glibc.rtld.exec_check=1: check, report, load */
  POLICY_ENFORCE,     /* SECBIT_EXEC_RESTRICT_FILE set */
  POLICY_LOCKED,      /* ... and SECBIT_EXEC_RESTRICT_FILE_LOCKED */
  POLICY_SECUREBITS_UNREADABLE,  /* a seccomp filter fails PR_GET_SECUREBITS */
  POLICY_CHECK_EINVAL,  /* a seccomp filter answers the check: EINVAL */
  POLICY_CHECK_ENOSYS,  /* ... ENOSYS */
  POLICY_CHECK_EPERM,   /* ... EPERM */
  POLICY_SECUREBITS_FORGED,  /* a seccomp filter answers PR_GET_SECUREBITS: 0 */
  POLICY_CHECK_FORGED,  /* a seccomp filter answers the check: 0 */
  POLICY_TRACED,      /* strace answers 0 for every execveat */
  POLICY_COUNT
};

/* What a case must end in.  */
enum outcome
{
  LOADED,           /* the payload ran */
  REFUSED,          /* ld.so refused it: the check failed */
  MAP_DENIED,       /* the noexec mount made mapping it fail (stock) */
  NOT_LOADABLE,     /* not an ELF object at all */
  EXEC_DENIED,      /* the kernel refused to execute the program */
  NO_MEMFD,         /* vm.memfd_noexec=2 refused to create the memfd */
  ALL_REFUSED,      /* ld.so refused every object: the answer was an error */
  TRACE_DENIED,     /* the kernel refused the tracer (Yama) */
  KERNEL_DENIED,    /* ld.so was lied to, Exec Restrict refused the mapping */
};

/* A route names the payload either as a file (any name works, including
   /proc/self/fd/N) or by a fixed name inside a directory it searches.  */
enum naming { BY_FILE, BY_DIRECTORY };

/* The most arguments of a route's command.  */
#define ROUTE_ARGS 6

struct route
{
  const char *name;
  enum naming naming;
  /* The payload's name in the directory (BY_DIRECTORY), or in the
     situation's directory (BY_FILE).  */
  const char *file_name;
  bool payload_is_program;  /* markprog instead of the library */
  bool root_only;           /* only root can set it up */
  bool execs_from_directory;  /* runs a program copied next to the payload */
  /* The name ld.so opens the payload by when it is not the payload's file
     name (a symlink, /proc/self/fd/N); NULL otherwise.  */
  const char *loaded_as;
  /* Text the output has when the payload was refused and the route shows
     no loader error (a search that fell back, a silent libc module).  */
  const char *silent_refusal;
  /* The command and one extra environment entry ("NAME=value", or NULL),
     with @FILE@ standing for the payload's name, @DIR@ for its directory
     and @BASE@ for its last component.  */
  const char *argv[ROUTE_ARGS];
  const char *env;
  /* Set up what else the route needs, as root in the parent, after the
     situation (DIR, FILE) is ready; may be NULL.  Returns 0, or -1 after
     printing why.  */
  int (*prepare_root) (const char *dir, const char *file);
  /* The same in the child, still as root, before it becomes the case's
     user; may be NULL.  */
  int (*prepare_child) (const char *dir, const char *file);
};

extern const struct route matrix_routes[];
extern const size_t matrix_route_count;

/* The command of ROUTE for the payload FILE in DIR: fills ARGV (at least
   ROUTE_ARGS entries) and ENV (at least 2: the extra entry or nothing,
   then NULL), with strings kept in BUF of LEN bytes.  Returns 0, or -1 if
   BUF is too small.  */
int route_command (const struct route *route, const char *dir, const char *file,
                  const char **argv, const char **env, char *buf, size_t len);

/* The payload files the guest image carries.  */
#define PAYLOAD_DIR "/usr/lib/checkexec/payload"
#define PAYLOAD_LIBRARY PAYLOAD_DIR "/libcheckexec-mark.so"
#define PAYLOAD_PROGRAM PAYLOAD_DIR "/markprog"
#define LOADCASE "/usr/lib/checkexec/bin/loadcase"
/* The directory the programs with a fixed RUNPATH look in: a link to the
   case's directory.  */
#define NEEDED_LINK "/run/checkexec/needed"
/* The memfd situations give the payload this descriptor number.  */
#define MEMFD_FD 100
/* loadcase dlopen-fd opens the payload as descriptor DLOPEN_FD and loads
   it as DLOPEN_FD_NAME.  */
#define DLOPEN_FD 101
#define DLOPEN_FD_NAME "/proc/self/fd/101"

const char *situation_name (enum situation s);
const char *policy_name (enum policy m);
const char *outcome_name (enum outcome o);

/* Whether the kernel's check refuses the payload in situation S.  */
bool situation_fails_check (enum situation s);
bool situation_is_memfd (enum situation s);

/* The payload file ROUTE loads.  */
const char *route_payload (const struct route *route);

/* Prepare situation S as root for a copy of PAYLOAD named FILE_NAME: fill
   DIR (the directory CASE_DIR of this case) and FILE (the name a route
   gets: the copy, or the memfd's /proc/self/fd name).  The script matrix
   (script-matrix/) shares the situations.  Returns 0 or -1.  */
int situation_prepare (enum situation s, const char *payload,
                       const char *file_name, const char *case_dir, char *dir,
                       size_t dir_len, char *file, size_t file_len);
/* In the parent while the case runs: keep a writer on a fifo.  Returns an
   fd to close afterwards, or -1.  */
int situation_hold_fifo (enum situation s, const char *file);
/* In the child, as the final user: create the memfd (holding PAYLOAD) or
   apply the Landlock ruleset.  Returns 0, or -1 after printing why (the
   memfd refusal prints "memfd_create: ...").  */
int situation_enter (enum situation s, const char *payload);

/* Whether policy M is tried in situation S, for root if ROOT: the attacks
   only on a 0755 and a 0644 file, tracing only as the test user (root
   may trace, and may do anything else too).  */
bool policy_applies (enum policy m, enum situation s, bool root);
/* Whether the bit is set and locked in policy M.  */
bool policy_is_locked (enum policy m);
/* In the child: put the process in policy M (securebits, seccomp filter).
   In a locked policy it then tries to clear the bit and prints
   "unlock: refused" or "unlock: succeeded".  Returns 0 or -1.  */
int policy_enter (enum policy m);
/* The environment entry policy M adds, or NULL.  */
const char *policy_environment (enum policy m);
/* The error a seccomp filter answers the check with in policy M, or 0.  */
int policy_check_error (enum policy m);
/* Whether policy M lies to ld.so with a success it cannot tell from the
   kernel's answer.  */
bool policy_forges_success (enum policy m);

/* The outcome ROUTE must have for situation S in policy M.  */
enum outcome expected_outcome (const struct route *route, enum situation s,
                               enum policy m);
/* Whether the observed run matches: FILE is the payload's name, MARKED
   whether the payload left its mark, OUTPUT what the case printed,
   STATUS its wait status.  On a mismatch, WHY says what was wrong.  */
bool outcome_matches (enum outcome expected, const struct route *route,
                      enum situation s, enum policy m, const char *file,
                      bool marked, const char *output, int status,
                      const char **why);

#endif
