/* Running one case of the matrix in a child process.  */
#include "run-case.h"

#include <errno.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* In the child: become USER (from root).  */
static int
become_user (const struct case_user *user)
{
  if (user->uid == 0)
    return 0;
  if (setgroups (1, &user->gid) != 0
      || setresgid (user->gid, user->gid, user->gid) != 0
      || setresuid (user->uid, user->uid, user->uid) != 0)
    {
      printf ("# becoming %s: %m\n", user->name);
      return -1;
    }
  return 0;
}

/* The environment of the case: a fixed base, the mark file, the mode's
   and the path's entries.  */
static void
build_environment (const char **env, const char *mark_entry,
                   const char *mode_entry, const char **path_env)
{
  int n = 0;
  env[n++] = "PATH=/usr/bin:/bin";
  env[n++] = "HOME=/";
  env[n++] = "LC_ALL=C";
  env[n++] = mark_entry;
  if (mode_entry != NULL)
    env[n++] = mode_entry;
  for (int i = 0; path_env[i] != NULL; i++)
    env[n++] = path_env[i];
  env[n] = NULL;
}

static _Noreturn void
child (const struct path *path, enum situation s, enum mode m,
       const struct case_user *user, const char *dir, const char *file,
       const char *mark, int out)
{
  int code = 125;
  if (dup2 (out, STDOUT_FILENO) < 0 || dup2 (out, STDERR_FILENO) < 0)
    _exit (code);
  close (out);
  setpgid (0, 0);
  if ((path->prepare_child == NULL || path->prepare_child (dir, file) == 0)
      && become_user (user) == 0 && situation_enter (s, path) == 0
      && mode_enter (m) == 0)
    {
      const char *argv[6], *path_env[2], *env[12];
      static char buf[16384], mark_entry[4096];
      snprintf (mark_entry, sizeof mark_entry, "CHECKEXEC_MARK=%s", mark);
      if (path_command (path, dir, file, argv, path_env, buf, sizeof buf) == 0)
        {
          build_environment (env, mark_entry, mode_environment (m), path_env);
          fflush (stdout);
          execve (argv[0], (char **) argv, (char **) env);
          printf ("exec %s: %s\n", argv[0], strerror (errno));
          code = 126;
        }
    }
  fflush (stdout);
  _exit (code);
}

/* Read the child's output until it closes it or DEADLINE passes.  */
static bool
collect_output (int fd, time_t deadline, char *buf, size_t size)
{
  size_t len = 0;
  for (;;)
    {
      struct pollfd p = { .fd = fd, .events = POLLIN };
      int left = (int) (deadline - time (NULL));
      if (left <= 0)
        break;
      if (poll (&p, 1, left * 1000) <= 0)
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

void
run_case (const struct path *path, enum situation s, enum mode m,
          const struct case_user *user, const char *dir, const char *file,
          const char *mark, int timeout, struct case_result *result)
{
  int pipefd[2];
  memset (result, 0, sizeof *result);
  fflush (stdout);
  if (pipe (pipefd) != 0)
    {
      snprintf (result->output, sizeof result->output, "pipe: %m");
      result->status = 255 << 8;
      return;
    }
  pid_t pid = fork ();
  if (pid == 0)
    {
      close (pipefd[0]);
      child (path, s, m, user, dir, file, mark, pipefd[1]);
    }
  close (pipefd[1]);
  if (pid < 0)
    {
      snprintf (result->output, sizeof result->output, "fork: %m");
      close (pipefd[0]);
      result->status = 255 << 8;
      return;
    }
  time_t deadline = time (NULL) + timeout;
  if (!collect_output (pipefd[0], deadline, result->output,
                       sizeof result->output))
    {
      result->timed_out = true;
      kill (-pid, SIGKILL);
      kill (pid, SIGKILL);
    }
  close (pipefd[0]);
  waitpid (pid, &result->status, 0);
}
