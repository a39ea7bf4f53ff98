/* The situations: where the payload is put and what it is.  */
#include "matrix.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <linux/memfd.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "files.h"

/* Case directories: one on the root file system (execution allowed), one
   on the noexec /tmp.  */
#define EXEC_CASES "/var/lib/checkexec/cases"
#define NOEXEC_CASES "/tmp/checkexec-cases"

static const char *const names[SITUATION_COUNT] = {
  [EXEC_0755] = "0755 file",
  [EXEC_0644] = "0644 file",
  [NOEXEC_0755] = "0755 file on noexec mount",
  [MEMFD_EXEC] = "memfd MFD_EXEC",
  [MEMFD_NOEXEC] = "memfd MFD_NOEXEC_SEAL",
  [LANDLOCK_DENIED] = "0755 file Landlock denies",
  [DIRECTORY] = "directory",
  [FIFO] = "fifo",
  [DEV_NULL] = "/dev/null",
};

const char *
situation_name (enum situation s)
{
  return names[s];
}

bool
situation_fails_check (enum situation s)
{
  return s == EXEC_0644 || s == NOEXEC_0755 || s == MEMFD_NOEXEC
         || s == LANDLOCK_DENIED;
}

bool
situation_is_memfd (enum situation s)
{
  return s == MEMFD_EXEC || s == MEMFD_NOEXEC;
}

const char *
route_payload (const struct route *route)
{
  return route->payload_is_program ? PAYLOAD_PROGRAM : PAYLOAD_LIBRARY;
}

/* Put a copy of PAYLOAD named NAME in DIR as situation S wants it.  */
static int
place_object (enum situation s, const char *payload, const char *name)
{
  switch (s)
    {
    case EXEC_0755:
    case NOEXEC_0755:
    case LANDLOCK_DENIED:
      return copy_file (payload, name, 0755);
    case EXEC_0644:
      return copy_file (payload, name, 0644);
    case DIRECTORY:
      return make_directory (name, 0755);
    case FIFO:
      if (mkfifo (name, 0666) == 0 && chmod (name, 0666) == 0)
        return 0;
      printf ("# mkfifo %s: %m\n", name);
      return -1;
    case DEV_NULL:
      if (symlink ("/dev/null", name) == 0)
        return 0;
      printf ("# symlink %s: %m\n", name);
      return -1;
    default:
      return 0;
    }
}

int
situation_prepare (enum situation s, const char *payload,
                   const char *file_name, const char *case_dir, char *dir,
                   size_t dir_len, char *file, size_t file_len)
{
  const char *base = s == NOEXEC_0755 ? NOEXEC_CASES : EXEC_CASES;
  snprintf (dir, dir_len, "%s/%s", base, case_dir);
  if (remove_tree (dir) != 0 || make_directory (base, 0755) != 0
      || make_directory (dir, 0755) != 0)
    return -1;
  if (situation_is_memfd (s))
    {
      snprintf (file, file_len, "/proc/self/fd/%d", MEMFD_FD);
      return 0;
    }
  snprintf (file, file_len, "%s/%s", dir, file_name);
  return place_object (s, payload, file);
}

int
situation_hold_fifo (enum situation s, const char *file)
{
  if (s != FIFO)
    return -1;
  /* Open for reading and writing so that neither side blocks, and give a
     reader something that is not an ELF header.  */
  int fd = open (file, O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    {
      printf ("# open fifo %s: %m\n", file);
      return -1;
    }
  static const char junk[64] = "this is not an ELF object";
  if (write (fd, junk, sizeof junk) != (ssize_t) sizeof junk)
    printf ("# write fifo %s: %m\n", file);
  return fd;
}

/* A memfd holding PAYLOAD at descriptor MEMFD_FD.  */
static int
enter_memfd (unsigned int flags, const char *payload)
{
  int fd = memfd_create ("payload", flags);
  if (fd < 0)
    {
      printf ("memfd_create: %s\n", strerror (errno));
      return -1;
    }
  if (copy_into_fd (payload, fd) != 0
      || dup2 (fd, MEMFD_FD) != MEMFD_FD)
    {
      printf ("# filling the memfd: %m\n");
      return -1;
    }
  close (fd);
  return 0;
}

/* Allow execution only below /usr (where the programs of the tests are):
   the payload's directory is outside.  */
static int
enter_landlock (void)
{
  struct landlock_ruleset_attr ruleset = {
    .handled_access_fs = LANDLOCK_ACCESS_FS_EXECUTE,
  };
  int ruleset_fd = syscall (SYS_landlock_create_ruleset, &ruleset,
                            sizeof ruleset, 0);
  if (ruleset_fd < 0)
    {
      printf ("# landlock_create_ruleset: %m\n");
      return -1;
    }
  struct landlock_path_beneath_attr usr = {
    .allowed_access = LANDLOCK_ACCESS_FS_EXECUTE,
    .parent_fd = open ("/usr", O_PATH | O_CLOEXEC),
  };
  if (usr.parent_fd < 0
      || syscall (SYS_landlock_add_rule, ruleset_fd, LANDLOCK_RULE_PATH_BENEATH,
                  &usr, 0) != 0
      || prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || syscall (SYS_landlock_restrict_self, ruleset_fd, 0) != 0)
    {
      printf ("# Landlock: %m\n");
      return -1;
    }
  close (usr.parent_fd);
  close (ruleset_fd);
  return 0;
}

int
situation_enter (enum situation s, const char *payload)
{
  switch (s)
    {
    case MEMFD_EXEC:
      return enter_memfd (MFD_EXEC, payload);
    case MEMFD_NOEXEC:
      return enter_memfd (MFD_NOEXEC_SEAL, payload);
    case LANDLOCK_DENIED:
      return enter_landlock ();
    default:
      return 0;
    }
}
