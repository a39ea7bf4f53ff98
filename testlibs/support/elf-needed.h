/* The DT_NEEDED entries of an ELF file.  */
#ifndef CHECKEXEC_ELF_NEEDED_H
#define CHECKEXEC_ELF_NEEDED_H

#include <stdbool.h>

/* Whether the 64-bit ELF file PATH has a DT_NEEDED entry NAME.  A file
   that is not such an ELF file, or has no dynamic section, has none.  */
bool elf_needs (const char *path, const char *name);

#endif
