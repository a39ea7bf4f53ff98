/* The one constant of the patched UAPI headers that testlibs cannot
   include (exec-check.h says why) must have the value those headers give
   it: this file includes only the UAPI side and fails to compile
   otherwise.  */
#include <linux/fcntl.h>

enum { UAPI_AT_EXECVE_CHECK = AT_EXECVE_CHECK };
#undef AT_EXECVE_CHECK
#include "exec-check.h"

_Static_assert (UAPI_AT_EXECVE_CHECK == AT_EXECVE_CHECK,
                "exec-check.h's AT_EXECVE_CHECK differs from <linux/fcntl.h>");
