/* Trying something in a child process, so that success changes nothing
   in the caller.  */
#ifndef CHECKEXEC_ATTEMPT_H
#define CHECKEXEC_ATTEMPT_H

/* Run TRY (CLOSURE) in a child process.  TRY returns 0 on success or an
   errno value.  Returns what TRY returned, or -1 if the child did not
   exit normally.  */
int attempt_in_child (int (*try) (void *), void *closure);

#endif
