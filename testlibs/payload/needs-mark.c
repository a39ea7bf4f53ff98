/* Needs the payload library directly (DT_NEEDED, found through the
   program's RUNPATH) or, built as needs-mid, through libcheckexec-mid.so.  */
#include <stdio.h>

#ifdef THROUGH_MID
int checkexec_mid (void);
# define CALL checkexec_mid
#else
int checkexec_mark (void);
# define CALL checkexec_mark
#endif

int
main (void)
{
  printf ("program ran (%d)\n", CALL ());
  return 0;
}
