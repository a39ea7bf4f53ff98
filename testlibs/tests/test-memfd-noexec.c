/* With vm.memfd_noexec=2 no memfd can be executed or pass the check:
   MFD_EXEC is refused, and a default memfd is sealed without execute
   permission.  Usage: test-memfd-noexec [EXPECTED-DIR] (unused)  */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MFD_EXEC
# define MFD_EXEC 0x0010U
#endif
#define AT_EXECVE_CHECK 0x10000

static int
sysctl_value (void)
{
  int value = -1;
  FILE *f = fopen ("/proc/sys/vm/memfd_noexec", "r");
  if (f != NULL)
    {
      if (fscanf (f, "%d", &value) != 1)
        value = -1;
      fclose (f);
    }
  return value;
}

int
main (void)
{
  int ok = 1;
  int value = sysctl_value ();
  if (value != 2)
    {
      printf ("# vm.memfd_noexec is %d, not 2\n", value);
      ok = 0;
    }
  int fd = memfd_create ("exec", MFD_EXEC);
  if (fd >= 0 || errno != EACCES)
    {
      printf ("# memfd_create (MFD_EXEC): %s\n",
              fd >= 0 ? "created" : strerror (errno));
      ok = 0;
    }
  fd = memfd_create ("default", 0);
  struct stat st;
  if (fd < 0 || fstat (fd, &st) != 0 || (st.st_mode & 0111) != 0)
    {
      printf ("# a default memfd is executable or cannot be created\n");
      ok = 0;
    }
  char *const argv[] = { "check", NULL }, *const envp[] = { NULL };
  if (fd >= 0)
    {
      long rc = syscall (SYS_execveat, fd, "", argv, envp,
                         AT_EMPTY_PATH | AT_EXECVE_CHECK);
      if (rc == 0 || errno != EACCES)
        {
          printf ("# AT_EXECVE_CHECK on a default memfd: %s\n",
                  rc == 0 ? "allowed" : strerror (errno));
          ok = 0;
        }
    }
  return ok ? 0 : 1;
}
