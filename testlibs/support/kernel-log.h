/* Looking for a record in the kernel log (audit records land there when
   no audit daemon runs).  */
#ifndef CHECKEXEC_KERNEL_LOG_H
#define CHECKEXEC_KERNEL_LOG_H

#include <stdbool.h>

/* Whether a line of the kernel log holds every string of NEEDLES (a
   NULL-terminated list); the first such line is printed as a TAP
   comment.  */
bool kernel_log_has (const char *const needles[]);

#endif
