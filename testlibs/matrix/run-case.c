/* Running one case of the matrix in a child process.  */
#include "run-case.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"

/* The tracer of POLICY_TRACED: it answers 0 for every execveat, the check
   included.  */
static const char *const forging_tracer[] = {
  "/usr/bin/strace", "-f", "-o", "/dev/null", "-e",
  "inject=execveat:retval=0", NULL,
};

/* The environment of the case: a fixed base, the mark file, ld.so's
   account of its checks (and, for a route that shows no error of its own,
   of the files it tries and maps), the policy's and the route's entries.  A
   traced command gets the route's entries through env(1) instead: they are
   for the command, not for strace.  */
static void
build_environment (const char **env, const char *mark_entry,
                   const struct route *route, enum policy m,
                   const char **route_env)
{
  int n = 0;
  env[n++] = "PATH=/usr/bin:/bin";
  env[n++] = "HOME=/";
  env[n++] = "LC_ALL=C";
  env[n++] = mark_entry;
  env[n++] = route->silent_refusal != NULL ? "LD_DEBUG=execcheck,files,libs"
                                           : "LD_DEBUG=execcheck";
  if (policy_environment (m) != NULL)
    env[n++] = policy_environment (m);
  for (int i = 0; m != POLICY_TRACED && route_env[i] != NULL; i++)
    env[n++] = route_env[i];
  env[n] = NULL;
}

/* The command line of the case: the route's command, or in POLICY_TRACED the
   tracer running env(1) with the route's environment entries running the
   route's command.  */
static void
build_argv (const char **argv, enum policy m, const char **route_argv,
            const char **route_env)
{
  int n = 0;
  if (m == POLICY_TRACED)
    {
      for (int i = 0; forging_tracer[i] != NULL; i++)
        argv[n++] = forging_tracer[i];
      argv[n++] = "/usr/bin/env";
      for (int i = 0; route_env[i] != NULL; i++)
        argv[n++] = route_env[i];
    }
  for (int i = 0; route_argv[i] != NULL; i++)
    argv[n++] = route_argv[i];
  argv[n] = NULL;
}

/* One case, as the child runs it.  */
struct case_child
{
  const struct route *route;
  enum situation situation;
  enum policy policy;
  const struct case_user *user;
  const char *dir, *file, *mark;
};

/* In the child: enter the case's situation and policy as its user and run
   the route's command, with standard output and error into OUT.  */
static void
run_child (void *arg, int out)
{
  const struct case_child *c = arg;
  int code = 125;
  if (dup2 (out, STDOUT_FILENO) < 0 || dup2 (out, STDERR_FILENO) < 0)
    _exit (code);
  close (out);
  if ((c->route->prepare_child == NULL
       || c->route->prepare_child (c->dir, c->file) == 0)
      && become_case_user (c->user) == 0 && policy_enter (c->policy) == 0
      && situation_enter (c->situation, route_payload (c->route)) == 0)
    {
      const char *route_argv[ROUTE_ARGS], *route_env[2], *env[12];
      const char *argv[ROUTE_ARGS + 10];
      static char buf[16384], mark_entry[4096];
      snprintf (mark_entry, sizeof mark_entry, "CHECKEXEC_MARK=%s", c->mark);
      if (route_command (c->route, c->dir, c->file, route_argv, route_env, buf,
                        sizeof buf)
          == 0)
        {
          build_environment (env, mark_entry, c->route, c->policy, route_env);
          build_argv (argv, c->policy, route_argv, route_env);
          fflush (stdout);
          execve (argv[0], (char **) argv, (char **) env);
          printf ("exec %s: %s\n", argv[0], strerror (errno));
          code = 126;
        }
    }
  fflush (stdout);
  _exit (code);
}

void
run_case (const struct route *route, enum situation s, enum policy m,
          const struct case_user *user, const char *dir, const char *file,
          const char *mark, int timeout, struct case_result *result)
{
  struct case_child c = { route, s, m, user, dir, file, mark };
  memset (result, 0, sizeof *result);
  int rc = spawn_capture (run_child, &c, timeout, result->output,
                          sizeof result->output, &result->status);
  if (rc < 0)
    result->status = 255 << 8;
  result->timed_out = rc == 1;
}
