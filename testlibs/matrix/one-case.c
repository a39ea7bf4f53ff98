/* Setting up, running and judging one case of the matrix.  */
#include "one-case.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"

#define MARK_DIR "/tmp/checkexec-marks"
#define MARK MARK_DIR "/mark"
/* Seconds a case may take (python3 under TCG is slow to start).  */
#define CASE_TIMEOUT 120

bool
case_applies (const struct route *route, enum situation s, enum policy m,
              const struct case_user *user)
{
  if (route->root_only && user->uid != 0)
    return false;
  /* A memfd has no directory to search.  */
  return !(situation_is_memfd (s) && route->naming == BY_DIRECTORY)
         && policy_applies (m, s, user->uid == 0);
}

int
cases_prepare (void)
{
  if (make_directory ("/run/checkexec", 0755) != 0
      || make_directory ("/var/lib/checkexec", 0755) != 0
      || make_directory (MARK_DIR, 0777) != 0)
    return -1;
  return 0;
}

static bool
marked (void)
{
  struct stat st;
  return stat (MARK, &st) == 0 && st.st_size > 0;
}

void
case_run (const char *case_dir, const struct route *route, enum situation s,
          enum policy m, const struct case_user *user,
          struct case_result *result, struct case_verdict *verdict)
{
  char dir[512] = "", file[1024];

  verdict->expected = expected_outcome (route, s, m);
  verdict->ok = false;
  verdict->why = "setting up the case failed";
  result->output[0] = '\0';
  unlink (MARK);
  if (situation_prepare (s, route_payload (route), route->file_name, case_dir,
                         dir, sizeof dir, file, sizeof file) == 0
      && (route->prepare_root == NULL || route->prepare_root (dir, file) == 0))
    {
      int fifo = situation_hold_fifo (s, file);
      run_case (route, s, m, user, dir, file, MARK, CASE_TIMEOUT, result);
      if (fifo >= 0)
        close (fifo);
      verdict->ok = !result->timed_out
                    && outcome_matches (verdict->expected, route, s, m, file,
                                        marked (), result->output,
                                        result->status, &verdict->why);
      if (result->timed_out)
        verdict->why = "the case did not finish in time";
    }
  unlink ("/etc/ld.so.preload");
  if (dir[0] != '\0')
    remove_tree (dir);
}
