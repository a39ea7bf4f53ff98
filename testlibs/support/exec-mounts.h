/* Walking every mount that allows execution.  */
#ifndef CHECKEXEC_EXEC_MOUNTS_H
#define CHECKEXEC_EXEC_MOUNTS_H

#include <ftw.h>
#include <sys/stat.h>

/* Call FN (as nftw(3) does, FTW_PHYS | FTW_MOUNT) for every entry of every
   mounted file system without noexec, pseudo file systems left out.
   Returns the number of mounts walked, or -1 if the mount table cannot be
   read.  */
int walk_exec_mounts (int (*fn) (const char *name, const struct stat *st,
                                 int type, struct FTW *ftw));

#endif
