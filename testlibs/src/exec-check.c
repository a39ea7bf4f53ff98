/* execveat (AT_EXECVE_CHECK): would the kernel execute this file?  */
#include "exec-check.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

int
exec_check_fd (int fd)
{
  /* A real argv: a NULL one makes the kernel warn.  */
  char *const argv[] = { "check", NULL }, *const envp[] = { NULL };
  if (syscall (SYS_execveat, fd, "", argv, envp,
               AT_EMPTY_PATH | AT_EXECVE_CHECK)
      != 0)
    return errno;
  return 0;
}

int
exec_check_path (const char *path)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0)
    return errno;
  int error = exec_check_fd (fd);
  close (fd);
  return error;
}
