/* The test user is unprivileged: not uid 0, no effective capabilities, and
   root-only files stay closed to it.  Run as the test user.
   Usage: test-user-unprivileged [EXPECTED-DIR] (the argument is unused)  */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The CapEff line of /proc/self/status, as a number; -1 if not found.  */
static long long
effective_capabilities (void)
{
  char line[256];
  long long caps = -1;
  FILE *f = fopen ("/proc/self/status", "r");
  if (f == NULL)
    return -1;
  while (fgets (line, sizeof line, f) != NULL)
    if (sscanf (line, "CapEff: %llx", &caps) == 1)
      break;
  fclose (f);
  return caps;
}

int
main (int argc, char **argv)
{
  (void) argc;
  (void) argv;
  int ok = 1;
  if (getuid () == 0 || geteuid () == 0)
    {
      printf ("# running as uid %d, euid %d\n", (int) getuid (),
              (int) geteuid ());
      ok = 0;
    }
  long long caps = effective_capabilities ();
  if (caps != 0)
    {
      printf ("# effective capabilities: %llx\n", caps);
      ok = 0;
    }
  int fd = open ("/etc/shadow", O_RDONLY);
  if (fd >= 0 || errno != EACCES)
    {
      printf ("# open /etc/shadow: %s\n", fd >= 0 ? "allowed" : strerror (errno));
      ok = 0;
    }
  return ok ? 0 : 1;
}
