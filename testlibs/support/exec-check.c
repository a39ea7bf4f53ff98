/* execveat (AT_EXECVE_CHECK): would the kernel execute this file?  */
#include "exec-check.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* execveat (DIRFD, PATH, AT_EXECVE_CHECK | FLAGS): 0 or its errno.  */
static int
exec_check_at (int dirfd, const char *path, int flags)
{
  /* A real argv: a NULL one makes the kernel warn.  */
  char *const argv[] = { "check", NULL }, *const envp[] = { NULL };
  if (syscall (SYS_execveat, dirfd, path, argv, envp,
               AT_EXECVE_CHECK | flags)
      != 0)
    return errno;
  return 0;
}

int
exec_check_fd (int fd)
{
  return exec_check_at (fd, "", AT_EMPTY_PATH);
}

int
exec_check_by_name (const char *path)
{
  return exec_check_at (AT_FDCWD, path, AT_SYMLINK_NOFOLLOW);
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
