/* Starting a program under one of the benchmark's ld.so configurations.  */
#ifndef CHECKEXEC_SPAWN_H
#define CHECKEXEC_SPAWN_H

#include <stddef.h>

#include "capture.h"

/* ENFORCING sets SECBIT_EXEC_RESTRICT_FILE: ld.so and the kernel (Exec
   Restrict) enforce.  TUNABLE_ENFORCING enforces in ld.so alone (the
   glibc.rtld.exec_check=2 tunable, the bit clear): the two differ by the
   kernel's mapping check only.  */
enum config { STOCK, UNPATCHED, CLEAR, ENFORCING, AUDIT, TUNABLE_ENFORCING,
              CONFIGS };

extern const char *const config_names[CONFIGS];

/* Copy the C libraries of configurations STOCK and UNPATCHED from the
   directory SHARE (the host's, over 9p: stock/ and unpatched/) to where
   they run, on the guest's disk; the image does not carry them.  Returns
   0 or -1.  */
int stage_libraries (const char *share);

/* Run ARGS (a NULL-terminated command) through the ld.so of configuration
   C, with its standard output in OUTPUT (LEN bytes) if OUTPUT is not NULL.
   Returns the wall time in ns, or -1 if it did not exit with status 0.  */
double spawn_timed (enum config c, const char *const *args, char *output,
                    size_t len);

/* Run CHILD (ARG, FD) with what it writes to FD in OUTPUT (LEN bytes), or
   nowhere if OUTPUT is NULL.  Returns the wall time in ns, or -1 if it did
   not exit with status 0.  */
double capture_timed (capture_child child, void *arg, char *output,
                      size_t len);

#endif
