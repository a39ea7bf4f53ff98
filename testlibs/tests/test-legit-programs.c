/* Nothing legitimate is refused under enforcement: everyday programs and
   the libraries and modules they load at run time work in the test user's
   enforced login session and for root under set-exec -f -l -m (strace for
   root only: nobody else may trace, see test-no-ptrace).  Run as root.
   Usage: test-legit-programs [EXPECTED-DIR] (unused)  */
#include <stdio.h>
#include <string.h>

#include "command.h"

static const char *const programs[] = {
  "python3 -c 'import ctypes, decimal, hashlib, json, sqlite3, ssl, zlib'",
  "perl -MPOSIX -MSocket -MList::Util -MDigest::MD5 -e 1",
  "apt-get --version",
  "dpkg --version",
  "ls -l /usr/lib",
  "getent passwd tester",
  "iconv -f UTF-8 -t UTF-16 /etc/hostname",
  NULL,
};

/* Programs only root may run with success.  */
static const char *const root_programs[] = {
  "strace -f -o /dev/null true",
  NULL,
};

/* Run COMMAND through a shell of the enforced session WHO.  */
static int
run_enforced (const char *who, const char *command)
{
  char output[16384];
  char *const as_tester[] = { "/usr/bin/su", "-", "tester", "-c",
                              (char *) command, NULL };
  char *const as_root[] = { "/usr/bin/set-exec", "-f", "-l", "-m", "--",
                            "/bin/bash", "-c", (char *) command, NULL };
  int status = run_command (strcmp (who, "tester") == 0 ? as_tester : as_root,
                            output, sizeof output);
  int ok = status == 0
           && strstr (output, "not allowed by the system policy") == NULL;
  printf ("# %s %s: status %d%s\n", ok ? "ran" : "FAILED", command, status,
          ok ? "" : ", output:");
  if (!ok)
    print_comment (output);
  return ok;
}

int
main (void)
{
  int failures = 0;
  for (int i = 0; programs[i] != NULL; i++)
    {
      failures += !run_enforced ("tester", programs[i]);
      failures += !run_enforced ("root", programs[i]);
    }
  for (int i = 0; root_programs[i] != NULL; i++)
    failures += !run_enforced ("root", root_programs[i]);
  return failures == 0 ? 0 : 1;
}
