/* The securebits of Linux 6.14, from the patched UAPI headers.  */
#ifndef CHECKEXEC_SECUREBITS_H
#define CHECKEXEC_SECUREBITS_H

#include <linux/securebits.h>

/* Set SECBIT_EXEC_RESTRICT_FILE, keeping the other bits (no capability
   needed).  Returns 0 or -1.  */
int set_restrict_file (void);

/* Make the exec securebits (SECBIT_EXEC_* and their locks) exactly
   EXEC_BITS, keeping the others.  Returns 0, or -1 after printing why as
   a TAP comment.  */
int set_exec_securebits (long exec_bits);

/* What any process can try: clear SECBIT_EXEC_RESTRICT_FILE.  Prints
   "unlock: refused" or "unlock: succeeded" and returns 0 if it was
   refused.  */
int try_unlock (void);

/* The securebits of process PID as an administrator reads them: the
   SecBits line of /proc/PID/status (linux/0011).  Returns -1 if there is
   none.  */
long secbits_of_process (long pid);

#endif
