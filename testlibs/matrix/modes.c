/* The modes of the executability check a case runs in.  */
#include "matrix.h"

#include <stdio.h>
#include <sys/prctl.h>

#include "../src/securebits.h"

static const char *const names[MODE_COUNT] = {
  [MODE_CLEAR] = "clear",
  [MODE_AUDIT] = "audit",
  [MODE_ENFORCE] = "enforce",
  [MODE_LOCKED] = "locked",
};

const char *
mode_name (enum mode m)
{
  return names[m];
}

const char *
mode_environment (enum mode m)
{
  switch (m)
    {
    case MODE_AUDIT:
      return "GLIBC_TUNABLES=glibc.rtld.exec_check=1";
    case MODE_LOCKED:
      /* loadcase then shows that the bit cannot be cleared.  */
      return "CHECKEXEC_TRY_UNLOCK=1";
    default:
      return NULL;
    }
}

int
mode_enter (enum mode m)
{
  long bits = prctl (PR_GET_SECUREBITS);
  if (bits < 0)
    {
      printf ("# PR_GET_SECUREBITS: %m\n");
      return -1;
    }
  long wanted = bits & ~(long) (SECBIT_EXEC_RESTRICT_FILE
                                | SECBIT_EXEC_RESTRICT_FILE_LOCKED);
  if (m == MODE_ENFORCE || m == MODE_LOCKED)
    wanted |= SECBIT_EXEC_RESTRICT_FILE;
  if (m == MODE_LOCKED)
    wanted |= SECBIT_EXEC_RESTRICT_FILE_LOCKED;
  /* Without CAP_SETPCAP even a call that changes nothing fails.  */
  if (wanted != bits && prctl (PR_SET_SECUREBITS, wanted) != 0)
    {
      printf ("# PR_SET_SECUREBITS %#lx: %m\n", wanted);
      return -1;
    }
  return 0;
}
