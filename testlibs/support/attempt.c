/* Trying something in a child process.  */
#include "attempt.h"

#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int
attempt_in_child (int (*try) (void *), void *closure)
{
  fflush (stdout);
  pid_t pid = fork ();
  if (pid < 0)
    return -1;
  if (pid == 0)
    _exit (try (closure) & 0xff);
  int status;
  if (waitpid (pid, &status, 0) != pid || !WIFEXITED (status))
    return -1;
  return WEXITSTATUS (status);
}
