/* Setting and trying to clear the securebits.  */
#include "securebits.h"

#include <stdio.h>
#include <sys/prctl.h>

int
set_restrict_file (void)
{
  long bits = prctl (PR_GET_SECUREBITS);
  if (bits < 0)
    return -1;
  return prctl (PR_SET_SECUREBITS, bits | SECBIT_EXEC_RESTRICT_FILE) == 0
             ? 0
             : -1;
}

int
try_unlock (void)
{
  /* If the bits cannot be read, clearing all of them is the attempt.  */
  long bits = prctl (PR_GET_SECUREBITS);
  if (bits < 0)
    bits = 0;
  if (prctl (PR_SET_SECUREBITS, bits & ~(long) SECBIT_EXEC_RESTRICT_FILE)
      != 0)
    {
      puts ("unlock: refused");
      return 0;
    }
  puts ("unlock: succeeded");
  return -1;
}
