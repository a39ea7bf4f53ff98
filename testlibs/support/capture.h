/* Running a child process and capturing what it writes.  */
#ifndef CHECKEXEC_CAPTURE_H
#define CHECKEXEC_CAPTURE_H

#include <stddef.h>

/* What the child runs: CHILD (ARG, FD), FD being the write end of the
   capture pipe.  It must not return (it execs or calls _exit).  */
typedef void (*capture_child) (void *arg, int fd);

/* Fork a child running CHILD (ARG, FD) and collect what it writes to FD
   into OUTPUT (LEN bytes, truncated, NUL-terminated) until it closes it, for
   at most TIMEOUT seconds (0: no limit; with a limit the child gets its own
   process group, which is killed when the time runs out); then wait for
   the child.
   Returns 0 with its wait status in *STATUS, 1 if it timed out or its output
   could not be read (the child is killed; also with *STATUS), or -1 with
   the reason in OUTPUT if it could not be started.  */
int spawn_capture (capture_child child, void *arg, int timeout, char *output,
                   size_t len, int *status);

#endif
