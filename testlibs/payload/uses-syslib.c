/* Needs libcheckexec-system.so (found in the system library directory
   unless a search path puts another file of that name first) and says
   which one it got.  */
#include <stdio.h>

const char *checkexec_system_library (void);

int
main (void)
{
  printf ("using %s\n", checkexec_system_library ());
  return 0;
}
