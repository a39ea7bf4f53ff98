/* The securebits of Linux 6.14 (the build host's headers may be older).  */
#ifndef CHECKEXEC_SECUREBITS_H
#define CHECKEXEC_SECUREBITS_H

#define SECBIT_EXEC_RESTRICT_FILE (1 << 8)
#define SECBIT_EXEC_RESTRICT_FILE_LOCKED (1 << 9)
#define SECBIT_EXEC_DENY_INTERACTIVE (1 << 10)
#define SECBIT_EXEC_DENY_INTERACTIVE_LOCKED (1 << 11)

/* Set SECBIT_EXEC_RESTRICT_FILE, keeping the other bits (no capability
   needed).  Returns 0 or -1.  */
int set_restrict_file (void);

/* What any process can try: clear SECBIT_EXEC_RESTRICT_FILE.  Prints
   "unlock: refused" or "unlock: succeeded" and returns 0 if it was
   refused.  */
int try_unlock (void);

#endif
