/* The payload as a program, for "ld.so ./program": leaves the mark of
   mark.c (linked in) and says it ran.  */
#include <stdio.h>

int checkexec_mark (void);

int
main (void)
{
  printf ("payload program ran (%d)\n", checkexec_mark ());
  return 0;
}
