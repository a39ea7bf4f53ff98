/* Setting up, running and judging one case of the script matrix.  */
#include "script-matrix.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "files.h"

#define MARK_DIR "/tmp/checkexec-marks"
#define MARK MARK_DIR "/script-mark"
/* Seconds a case may take under TCG.  */
#define CASE_TIMEOUT 60

/* One case, as the child runs it.  */
struct script_child
{
  const struct script_route *route;
  enum situation situation;
  enum script_bits bits;
  const struct case_user *user;
  const char *dir, *file;
};

/* The payloads' texts, read once (script_cases_prepare).  */
#define PAYLOAD_COUNT 8
static struct
{
  const char *path;
  char code[4096];
} payloads[PAYLOAD_COUNT];

/* The text of the payload PATH (empty if it was not read).  */
static const char *
payload_code (const char *path)
{
  for (int i = 0; i < PAYLOAD_COUNT && payloads[i].path != NULL; i++)
    if (strcmp (payloads[i].path, path) == 0)
      return payloads[i].code;
  return "";
}

/* Copy TEMPLATE into BUF (LEN bytes) with @FILE@, @DIR@ and @CODE@
   replaced.  Returns BUF, or NULL if it does not fit.  */
static const char *
expand (const char *template, const struct script_child *c, char *buf,
        size_t len)
{
  size_t n = 0;
  for (const char *p = template; *p != '\0';)
    {
      const char *value = NULL;
      size_t skip = 0;
      if (strncmp (p, "@FILE@", 6) == 0)
        value = c->file, skip = 6;
      else if (strncmp (p, "@DIR@", 5) == 0)
        value = c->dir, skip = 5;
      else if (strncmp (p, "@CODE@", 6) == 0)
        value = payload_code (c->route->payload), skip = 6;
      size_t add = value != NULL ? strlen (value) : 1;
      if (n + add >= len)
        return NULL;
      memcpy (buf + n, value != NULL ? value : p, add);
      n += add;
      p += value != NULL ? skip : 1;
    }
  buf[n] = '\0';
  return buf;
}

/* In the child: standard input as the route wants it.  */
static int
set_stdin (const struct script_child *c)
{
  int fd, pipe_fds[2];
  const char *code = payload_code (c->route->payload);
  switch (c->route->input)
    {
    case INPUT_STDIN_FILE:
      fd = open (c->file, O_RDONLY);
      break;
    case INPUT_PIPE:
    case INPUT_NAMED_PIPE:
      if (pipe (pipe_fds) != 0)
        return -1;
      /* The payload is far smaller than a pipe's buffer.  */
      if (write (pipe_fds[1], code, strlen (code)) != (ssize_t) strlen (code))
        return -1;
      close (pipe_fds[1]);
      fd = pipe_fds[0];
      break;
    default:
      fd = open ("/dev/null", O_RDONLY);
      break;
    }
  if (fd < 0 || dup2 (fd, STDIN_FILENO) < 0)
    {
      printf ("# standard input of the case: %m\n");
      return -1;
    }
  if (fd != STDIN_FILENO)
    close (fd);
  return 0;
}

/* Whether one of the N entries of ENV sets the variable of ENTRY
   ("NAME=VALUE").  */
static bool
env_sets (const char *const *env, int n, const char *entry)
{
  size_t name = strcspn (entry, "=") + 1;
  for (int i = 0; i < n; i++)
    if (strncmp (env[i], entry, name) == 0)
      return true;
  return false;
}

/* In the child: become the case's user, in its securebits and situation,
   and run the route's command with output into OUT.  */
static void
run_child (void *arg, int out)
{
  const struct script_child *c = arg;
  static char args[SCRIPT_ARGS][8192], envs[SCRIPT_ENV][4096];
  const char *argv[SCRIPT_ARGS + 1], *env[SCRIPT_ENV + 6];
  int n = 0;
  if (dup2 (out, STDOUT_FILENO) < 0 || dup2 (out, STDERR_FILENO) < 0)
    _exit (125);
  close (out);
  /* The route's entries, then the defaults it does not set: an entry must
     not come twice, since getenv () takes the first and a shell the
     last.  */
  for (int i = 0; i < SCRIPT_ENV && c->route->env[i] != NULL; i++)
    if ((env[n++] = expand (c->route->env[i], c, envs[i], sizeof envs[i]))
        == NULL)
      _exit (125);
  static const char *const defaults[] = { "PATH=/usr/bin:/bin", "HOME=/",
                                          "LC_ALL=C",
                                          "CHECKEXEC_MARK=" MARK };
  for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
    if (!env_sets (env, n, defaults[i]))
      env[n++] = defaults[i];
  if (c->bits == BITS_AUDIT)
    env[n++] = c->route->audit_env;
  env[n] = NULL;
  for (n = 0; n < SCRIPT_ARGS && c->route->argv[n] != NULL; n++)
    if ((argv[n] = expand (c->route->argv[n], c, args[n], sizeof args[n]))
        == NULL)
      _exit (125);
  argv[n] = NULL;
  if (become_case_user (c->user) == 0 && script_bits_enter (c->bits) == 0
      && situation_enter (c->situation, c->route->payload) == 0
      && set_stdin (c) == 0)
    {
      fflush (stdout);
      execve (argv[0], (char **) argv, (char **) env);
      printf ("exec %s: %s\n", argv[0], strerror (errno));
    }
  fflush (stdout);
  _exit (126);
}

/* Read the payload PATH into the next free entry of payloads, unless it
   is there.  Returns 0, or -1 after printing why.  */
static int
read_payload (const char *path)
{
  int i = 0;
  while (i < PAYLOAD_COUNT && payloads[i].path != NULL
         && strcmp (payloads[i].path, path) != 0)
    i++;
  if (i < PAYLOAD_COUNT && payloads[i].path != NULL)
    return 0;
  if (i == PAYLOAD_COUNT)
    {
      printf ("# more than %d payloads\n", PAYLOAD_COUNT);
      return -1;
    }
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  ssize_t n = fd >= 0 ? read (fd, payloads[i].code,
                              sizeof payloads[i].code - 1)
                      : -1;
  if (fd >= 0)
    close (fd);
  if (n <= 0)
    {
      printf ("# reading %s: %m\n", path);
      return -1;
    }
  payloads[i].code[n] = '\0';
  payloads[i].path = path;
  return 0;
}

int
script_cases_prepare (void)
{
  /* The parent of the situations' directory on the root file system.  */
  if (make_directory ("/var/lib/checkexec", 0755) != 0
      || make_directory (MARK_DIR, 0777) != 0)
    return -1;
  for (size_t r = 0; r < script_route_count; r++)
    if (read_payload (script_routes[r].payload) != 0)
      return -1;
  return 0;
}

/* What a refusal or an audit report of the case's code calls it: the
   route's name for its input, the file, or for a route that is denied as
   a whole, that.  */
static const char *
refused_name (const struct script_route *route, enum situation s,
              enum script_bits b, const char *file)
{
  enum script_outcome expected = script_expected (route, s, b);
  if (route->denied_as != NULL
      && (expected == SCRIPT_DENIED || expected == SCRIPT_IGNORED
          || (expected == SCRIPT_AUDITED && !situation_fails_check (s))))
    return route->denied_as;
  return route->refused_as != NULL ? route->refused_as : file;
}

static bool
marked (void)
{
  struct stat st;
  return stat (MARK, &st) == 0 && st.st_size > 0;
}

bool
script_case_run (const char *case_dir, const struct script_route *route,
                 enum situation s, enum script_bits b,
                 const struct case_user *user, char *output, size_t len,
                 const char **why)
{
  static struct script_child c;
  char dir[512] = "", file[1024];
  int status = 0;
  bool ok = false;

  *why = "setting up the case failed";
  output[0] = '\0';
  c = (struct script_child) { route, s, b, user, dir, file };
  if ((unlink (MARK) == 0 || errno == ENOENT)
      && situation_prepare (s, route->payload, route->file_name, case_dir,
                            dir, sizeof dir, file, sizeof file)
             == 0)
    {
      int rc = spawn_capture (run_child, &c, CASE_TIMEOUT, output, len,
                              &status);
      if (rc == 0)
        ok = script_outcome_matches (script_expected (route, s, b),
                                     refused_name (route, s, b, file),
                                     marked (), output, status, why);
      else
        *why = rc == 1 ? "the case did not finish in time"
                       : "the case could not be started";
    }
  if (dir[0] != '\0')
    remove_tree (dir);
  return ok;
}
