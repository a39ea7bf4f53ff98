/* Running a command and capturing what it prints.  */
#include "command.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture.h"

/* In the child: run the command ARGV with its output into FD.  */
static void
exec_command (void *argv, int fd)
{
  char *const *args = argv;
  dup2 (fd, STDOUT_FILENO);
  dup2 (fd, STDERR_FILENO);
  close (fd);
  execv (args[0], args);
  printf ("exec %s: %m\n", args[0]);
  fflush (stdout);
}

int
run_command (char *const argv[], char *output, size_t len)
{
  int status;
  if (spawn_capture (exec_command, (void *) argv, 0, output, len, &status)
          != 0
      || !WIFEXITED (status))
    return -1;
  return WEXITSTATUS (status);
}

void
print_comment (const char *text)
{
  while (*text != '\0')
    {
      const char *end = strchrnul (text, '\n');
      printf ("#   %.*s\n", (int) (end - text), text);
      text = *end == '\n' ? end + 1 : end;
    }
}
