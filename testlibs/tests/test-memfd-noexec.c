/* What vm.memfd_noexec=2 refuses and what it does not.  Refused: creating
   an executable memfd (MFD_EXEC), making a default memfd executable (it is
   sealed without execute permission), passing AT_EXECVE_CHECK with it, and
   executing it; so ld.so refuses every memfd under the securebits.  Not
   refused: mapping a default memfd executable with mmap(PROT_EXEC), which
   the kernel allows today whatever the securebits; this test asserts that
   too, so that it changes when the kernel starts refusing it.  One TAP
   result each.  Usage: test-memfd-noexec [EXPECTED-DIR] (unused)  */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../src/attempt.h"
#include "../src/files.h"
#include "../src/tap.h"

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

static const char *
error_name (long rc)
{
  return rc == 0 ? "it succeeded" : strerror (errno);
}

/* Execute the memfd FD (which holds /bin/true) in a child: the child
   exits 0 if it ran, or with the errno of the refused exec.  */
static int
try_exec_memfd (void *fd)
{
  char *const argv[] = { "true", NULL }, *const envp[] = { NULL };
  syscall (SYS_execveat, *(int *) fd, "", argv, envp, AT_EMPTY_PATH);
  return errno;
}

int
main (void)
{
  tap_plan (6);
  int value = sysctl_value ();
  tap_result (value == 2, "vm.memfd_noexec is 2 (%d)", value);

  int fd = memfd_create ("exec", MFD_EXEC);
  tap_result (fd < 0 && errno == EACCES,
              "memfd_create (MFD_EXEC) is refused with EACCES (%s)",
              fd >= 0 ? "created" : strerror (errno));

  fd = memfd_create ("default", 0);
  if (fd < 0 || copy_into_fd ("/bin/true", fd) != 0)
    {
      printf ("# cannot make a memfd holding /bin/true: %m\n");
      return 1;
    }
  struct stat st;
  long rc = fchmod (fd, 0755);
  tap_result (rc != 0 && errno == EPERM && fstat (fd, &st) == 0
                  && (st.st_mode & 0111) == 0,
              "a default memfd has no execute bit and cannot get one (%s)",
              error_name (rc));

  char *const argv[] = { "check", NULL }, *const envp[] = { NULL };
  rc = syscall (SYS_execveat, fd, "", argv, envp,
                AT_EMPTY_PATH | AT_EXECVE_CHECK);
  tap_result (rc != 0 && errno == EACCES,
              "AT_EXECVE_CHECK refuses a default memfd with EACCES (%s)",
              error_name (rc));

  int error = attempt_in_child (try_exec_memfd, &fd);
  tap_result (error == EACCES,
              "executing a default memfd is refused with EACCES (%s)",
              error == 0 ? "it ran" : strerror (error));

  void *code = mmap (NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
  tap_result (code != MAP_FAILED,
              "not refused (the kernel does not refuse it yet): mapping a"
              " default memfd with PROT_EXEC (%s)",
              code != MAP_FAILED ? "mapped" : strerror (errno));
  return tap_failures () == 0 ? 0 : 1;
}
