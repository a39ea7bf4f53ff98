/* What vm.memfd_noexec=2 refuses, and what Exec Restrict adds.  Refused by
   the sysctl: creating an executable memfd (MFD_EXEC), making a default
   memfd executable (it is sealed without execute permission), passing
   AT_EXECVE_CHECK with it, and executing it; so ld.so refuses every memfd
   under the securebits.  Mapping a default memfd with PROT_EXEC works
   without the securebits and is refused by the kernel (Exec Restrict)
   under SECBIT_EXEC_RESTRICT_FILE.  One TAP result each.
   Usage: test-memfd-noexec [EXPECTED-DIR] (unused)  */
#include <errno.h>
#include <linux/memfd.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "attempt.h"
#include "exec-check.h"
#include "files.h"
#include "securebits.h"
#include "tap.h"

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

/* Map the memfd FD executable, under SECBIT_EXEC_RESTRICT_FILE if the
   attempt says so.  */
struct map_attempt
{
  int fd;
  bool restricted;
};

/* 0 or the errno of mmap; 255 if the bit could not be set.  */
static int
try_map_memfd (void *closure)
{
  const struct map_attempt *attempt = closure;
  if (attempt->restricted && set_restrict_file () != 0)
    return 255;
  void *code = mmap (NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE,
                     attempt->fd, 0);
  return code == MAP_FAILED ? errno : 0;
}

static const char *
map_result (int error)
{
  return error == 0     ? "mapped"
         : error == 255 ? "cannot set the bit"
                        : strerror (error);
}

int
main (void)
{
  tap_plan (7);
  int value = sysctl_value ();
  tap_note ("vm.memfd_noexec: %d", value);
  tap_result (value == 2, "vm.memfd_noexec is 2");

  int fd = memfd_create ("exec", MFD_EXEC);
  int error = fd < 0 ? errno : 0;
  tap_note ("memfd_create (MFD_EXEC): %s",
            fd >= 0 ? "created" : strerror (error));
  tap_result (fd < 0 && error == EACCES,
              "memfd_create (MFD_EXEC) is refused with EACCES");

  fd = memfd_create ("default", 0);
  if (fd < 0 || copy_into_fd ("/bin/true", fd) != 0)
    {
      printf ("# cannot make a memfd holding /bin/true: %m\n");
      return 1;
    }
  struct stat st;
  long rc = fchmod (fd, 0755);
  error = rc != 0 ? errno : 0;
  tap_note ("fchmod 0755: %s", error_name (rc));
  tap_result (rc != 0 && error == EPERM && fstat (fd, &st) == 0
                  && (st.st_mode & 0111) == 0,
              "a default memfd has no execute bit and cannot get one");

  int check = exec_check_fd (fd);
  tap_note ("the check: %s", check == 0 ? "it passed" : strerror (check));
  tap_result (check == EACCES,
              "AT_EXECVE_CHECK refuses a default memfd with EACCES");

  error = attempt_in_child (try_exec_memfd, &fd);
  tap_note ("the execution: %s", error == 0 ? "it ran" : strerror (error));
  tap_result (error == EACCES,
              "executing a default memfd is refused with EACCES");

  struct map_attempt open_map = { fd, false }, restricted_map = { fd, true };
  error = attempt_in_child (try_map_memfd, &open_map);
  tap_note ("the mapping without the bits: %s", map_result (error));
  tap_result (error == 0,
              "without the securebits a default memfd maps with PROT_EXEC");
  error = attempt_in_child (try_map_memfd, &restricted_map);
  tap_note ("the mapping under the bit: %s", map_result (error));
  tap_result (error == EACCES,
              "under SECBIT_EXEC_RESTRICT_FILE the kernel refuses to map a"
              " default memfd with PROT_EXEC: EACCES");
  return tap_failures () == 0 ? 0 : 1;
}
