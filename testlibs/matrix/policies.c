/* The policies of the executability check a case runs in.  */
#include "matrix.h"

#include <errno.h>
#include <stdio.h>
#include <sys/prctl.h>

#include "seccomp.h"
#include "securebits.h"

static const char *const names[POLICY_COUNT] = {
  [POLICY_CLEAR] = "clear",
  [POLICY_AUDIT] = "audit",
  [POLICY_ENFORCE] = "enforce",
  [POLICY_LOCKED] = "locked",
  [POLICY_SECUREBITS_UNREADABLE] = "locked, securebits unreadable",
  [POLICY_CHECK_EINVAL] = "locked, check answers EINVAL",
  [POLICY_CHECK_ENOSYS] = "locked, check answers ENOSYS",
  [POLICY_CHECK_EPERM] = "locked, check answers EPERM",
  [POLICY_SECUREBITS_FORGED] = "locked, securebits read as 0",
  [POLICY_CHECK_FORGED] = "locked, check answers 0",
  [POLICY_TRACED] = "locked, strace answers 0",
};

const char *
policy_name (enum policy m)
{
  return names[m];
}

bool
policy_is_locked (enum policy m)
{
  return m >= POLICY_LOCKED;
}

bool
policy_applies (enum policy m, enum situation s, bool root)
{
  if (m <= POLICY_LOCKED)
    return true;
  if (m == POLICY_TRACED && root)
    return false;
  return s == EXEC_0755 || s == EXEC_0644;
}

const char *
policy_environment (enum policy m)
{
  return m == POLICY_AUDIT ? "GLIBC_TUNABLES=glibc.rtld.exec_check=1" : NULL;
}

int
policy_check_error (enum policy m)
{
  switch (m)
    {
    case POLICY_CHECK_EINVAL:
      return EINVAL;
    case POLICY_CHECK_ENOSYS:
      return ENOSYS;
    case POLICY_CHECK_EPERM:
      return EPERM;
    default:
      return 0;
    }
}

bool
policy_forges_success (enum policy m)
{
  return m == POLICY_SECUREBITS_FORGED || m == POLICY_CHECK_FORGED;
}

int
policy_enter (enum policy m)
{
  long wanted = 0;
  if (m == POLICY_ENFORCE || policy_is_locked (m))
    wanted |= SECBIT_EXEC_RESTRICT_FILE;
  if (policy_is_locked (m))
    wanted |= SECBIT_EXEC_RESTRICT_FILE_LOCKED;
  if (set_exec_securebits (wanted) != 0)
    return -1;
  if (policy_is_locked (m))
    try_unlock ();
  if (m == POLICY_SECUREBITS_UNREADABLE)
    return forge_securebits_error (EPERM);
  if (m == POLICY_SECUREBITS_FORGED)
    return forge_securebits_error (0);
  if (m == POLICY_CHECK_FORGED)
    return forge_check_error (0);
  if (policy_check_error (m) != 0)
    return forge_check_error (policy_check_error (m));
  return 0;
}
