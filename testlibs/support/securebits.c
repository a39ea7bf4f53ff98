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

#define EXEC_SECUREBITS                                                      \
  (SECBIT_EXEC_RESTRICT_FILE | SECBIT_EXEC_RESTRICT_FILE_LOCKED                \
   | SECBIT_EXEC_DENY_INTERACTIVE | SECBIT_EXEC_DENY_INTERACTIVE_LOCKED)

int
set_exec_securebits (long exec_bits)
{
  long bits = prctl (PR_GET_SECUREBITS);
  if (bits < 0)
    {
      printf ("# PR_GET_SECUREBITS: %m\n");
      return -1;
    }
  long wanted = (bits & ~(long) EXEC_SECUREBITS) | exec_bits;
  /* Without CAP_SETPCAP even a call that changes nothing fails.  */
  if (wanted != bits && prctl (PR_SET_SECUREBITS, wanted) != 0)
    {
      printf ("# PR_SET_SECUREBITS %#lx: %m\n", wanted);
      return -1;
    }
  return 0;
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

long
secbits_of_process (long pid)
{
  char path[64], line[256];
  long bits = -1;
  snprintf (path, sizeof path, "/proc/%ld/status", pid);
  FILE *status = fopen (path, "r");
  if (status == NULL)
    return -1;
  while (fgets (line, sizeof line, status) != NULL)
    if (sscanf (line, "SecBits: %lx", &bits) == 1)
      break;
  fclose (status);
  return bits;
}
