/* What the LSM policy tests (IMA, IPE, AppArmor) ask of the system, each
   printing what it ran and saw as TAP comments.  */
#ifndef CHECKEXEC_POLICY_PROBES_H
#define CHECKEXEC_POLICY_PROBES_H

#include <stdbool.h>

/* Run ARGV (argv[0] a full path): whether it exited with status 0.  */
bool command_works (const char *const argv[]);

/* The errno of a real execve of PATH (with ARG as its argument) in a
   child: EACCES if it failed so, 0 if it ran and exited with status 0, -1
   for anything else.  */
int execution_error (const char *path, const char *arg);

/* Whether /usr/lib/checkexec/bin/loadcase dlopens LIBRARY, under
   SECBIT_EXEC_RESTRICT_FILE if RESTRICT_FILE.  */
bool dlopen_works (const char *library, bool restrict_file);

#endif
