/* Running a command and capturing what it prints.  */
#include "command.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int
run_command (char *const argv[], char *output, size_t len)
{
  int fds[2];
  size_t used = 0;
  output[0] = '\0';
  fflush (stdout);
  if (pipe (fds) != 0)
    return -1;
  pid_t pid = fork ();
  if (pid == 0)
    {
      dup2 (fds[1], STDOUT_FILENO);
      dup2 (fds[1], STDERR_FILENO);
      close (fds[0]);
      close (fds[1]);
      execv (argv[0], argv);
      printf ("exec %s: %m\n", argv[0]);
      _exit (127);
    }
  close (fds[1]);
  ssize_t n;
  while (pid > 0 && (n = read (fds[0], output + used, len - 1 - used)) > 0)
    used += (size_t) n;
  output[used] = '\0';
  close (fds[0]);
  int status;
  if (pid < 0 || waitpid (pid, &status, 0) != pid || !WIFEXITED (status))
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
