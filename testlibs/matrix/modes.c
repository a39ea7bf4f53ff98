/* The modes of the executability check a case runs in.  */
#include "matrix.h"

#include <errno.h>
#include <stdio.h>
#include <sys/prctl.h>

#include "../src/seccomp.h"
#include "../src/securebits.h"

static const char *const names[MODE_COUNT] = {
  [MODE_CLEAR] = "clear",
  [MODE_AUDIT] = "audit",
  [MODE_ENFORCE] = "enforce",
  [MODE_LOCKED] = "locked",
  [MODE_SECUREBITS_UNREADABLE] = "locked, securebits unreadable",
  [MODE_CHECK_EINVAL] = "locked, check answers EINVAL",
  [MODE_CHECK_ENOSYS] = "locked, check answers ENOSYS",
  [MODE_CHECK_EPERM] = "locked, check answers EPERM",
  [MODE_SECUREBITS_FORGED] = "locked, securebits read as 0",
  [MODE_CHECK_FORGED] = "locked, check answers 0",
  [MODE_TRACED] = "locked, strace answers 0",
};

const char *
mode_name (enum mode m)
{
  return names[m];
}

bool
mode_is_locked (enum mode m)
{
  return m >= MODE_LOCKED;
}

bool
mode_applies (enum mode m, enum situation s, bool root)
{
  if (m <= MODE_LOCKED)
    return true;
  if (m == MODE_TRACED && root)
    return false;
  return s == EXEC_0755 || s == EXEC_0644;
}

const char *
mode_environment (enum mode m)
{
  return m == MODE_AUDIT ? "GLIBC_TUNABLES=glibc.rtld.exec_check=1" : NULL;
}

int
mode_check_error (enum mode m)
{
  switch (m)
    {
    case MODE_CHECK_EINVAL:
      return EINVAL;
    case MODE_CHECK_ENOSYS:
      return ENOSYS;
    case MODE_CHECK_EPERM:
      return EPERM;
    default:
      return 0;
    }
}

bool
mode_forges_success (enum mode m)
{
  return m == MODE_SECUREBITS_FORGED || m == MODE_CHECK_FORGED;
}

static int
set_securebits (long wanted)
{
  long bits = prctl (PR_GET_SECUREBITS);
  if (bits < 0)
    {
      printf ("# PR_GET_SECUREBITS: %m\n");
      return -1;
    }
  wanted |= bits & ~(long) (SECBIT_EXEC_RESTRICT_FILE
                            | SECBIT_EXEC_RESTRICT_FILE_LOCKED);
  /* Without CAP_SETPCAP even a call that changes nothing fails.  */
  if (wanted != bits && prctl (PR_SET_SECUREBITS, wanted) != 0)
    {
      printf ("# PR_SET_SECUREBITS %#lx: %m\n", wanted);
      return -1;
    }
  return 0;
}

int
mode_enter (enum mode m)
{
  long wanted = 0;
  if (m == MODE_ENFORCE || mode_is_locked (m))
    wanted |= SECBIT_EXEC_RESTRICT_FILE;
  if (mode_is_locked (m))
    wanted |= SECBIT_EXEC_RESTRICT_FILE_LOCKED;
  if (set_securebits (wanted) != 0)
    return -1;
  if (mode_is_locked (m))
    try_unlock ();
  if (m == MODE_SECUREBITS_UNREADABLE)
    return forge_securebits_error (EPERM);
  if (m == MODE_SECUREBITS_FORGED)
    return forge_securebits_error (0);
  if (m == MODE_CHECK_FORGED)
    return forge_check_error (0);
  if (mode_check_error (m) != 0)
    return forge_check_error (mode_check_error (m));
  return 0;
}
