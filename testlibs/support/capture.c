/* Running a child process and capturing what it writes.  */
#include "capture.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Read FD into BUF (SIZE bytes) until it is closed (true) or DEADLINE
   passes (false; 0 means never).  */
static bool
collect_output (int fd, time_t deadline, char *buf, size_t size)
{
  size_t len = 0;
  for (;;)
    {
      struct pollfd p = { .fd = fd, .events = POLLIN };
      int wait_ms = -1;
      if (deadline != 0)
        {
          time_t left = deadline - time (NULL);
          if (left <= 0)
            break;
          wait_ms = (int) left * 1000;
        }
      int ready = poll (&p, 1, wait_ms);
      if (ready < 0 && errno != EINTR)
        break;
      if (ready <= 0)
        continue;
      char chunk[4096];
      ssize_t n = read (fd, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          buf[len] = '\0';
          return true;
        }
      size_t take = (size_t) n < size - 1 - len ? (size_t) n : size - 1 - len;
      memcpy (buf + len, chunk, take);
      len += take;
    }
  buf[len] = '\0';
  return false;
}

int
spawn_capture (capture_child child, void *arg, int timeout, char *output,
               size_t len, int *status)
{
  int fds[2];
  output[0] = '\0';
  /* Whatever is buffered would otherwise be written twice.  */
  fflush (stdout);
  if (pipe (fds) != 0)
    {
      snprintf (output, len, "pipe: %s", strerror (errno));
      return -1;
    }
  pid_t pid = fork ();
  if (pid == 0)
    {
      close (fds[0]);
      /* Its own process group, so that all it started can be killed.  */
      if (timeout > 0)
        setpgid (0, 0);
      child (arg, fds[1]);
      _exit (127);
    }
  close (fds[1]);
  if (pid < 0)
    {
      snprintf (output, len, "fork: %s", strerror (errno));
      close (fds[0]);
      return -1;
    }
  time_t deadline = timeout > 0 ? time (NULL) + timeout : 0;
  bool finished = collect_output (fds[0], deadline, output, len);
  if (!finished)
    {
      kill (-pid, SIGKILL);
      kill (pid, SIGKILL);
    }
  close (fds[0]);
  if (waitpid (pid, status, 0) != pid)
    {
      snprintf (output, len, "waitpid: %s", strerror (errno));
      return -1;
    }
  return finished ? 0 : 1;
}
