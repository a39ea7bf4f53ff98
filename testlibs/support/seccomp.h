/* Seccomp filters that answer for the kernel: what a sandboxing tool that
   applies a user's filter (or the user's own code) can do to a program,
   for the tests and the demonstration of ld.so failing closed.  */
#ifndef CHECKEXEC_SECCOMP_H
#define CHECKEXEC_SECCOMP_H

/* From now on, make PR_GET_SECUREBITS fail with ERROR in this process and
   the programs it runs (an ERROR of 0: succeed and return 0, as if no bit
   were set).  Returns 0, or -1 after printing why.  */
int forge_securebits_error (int error);

/* From now on, make every execveat with AT_EXECVE_CHECK fail with ERROR
   instead of reaching the kernel's check (0: succeed, "allowed").
   Returns 0 or -1.  */
int forge_check_error (int error);

#endif
