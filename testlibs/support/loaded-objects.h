/* Facts about the objects the dynamic linker has loaded into this process.  */
#ifndef CHECKEXEC_LOADED_OBJECTS_H
#define CHECKEXEC_LOADED_OBJECTS_H

#include <stddef.h>

/* Write in HEX the GNU build-id of the loaded object whose file name ends
   in SUFFIX (for example "/libc.so.6").  Returns 0, or -1 if no such object
   is loaded or it has no build-id.  */
int loaded_build_id (const char *suffix, char *hex, size_t len);

/* The name under which the dynamic linker itself is loaded (its PT_INTERP
   path), or NULL.  */
const char *loaded_interpreter (void);

#endif
