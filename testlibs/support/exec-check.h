/* execveat (AT_EXECVE_CHECK): would the kernel execute this file?  */
#ifndef CHECKEXEC_EXEC_CHECK_H
#define CHECKEXEC_EXEC_CHECK_H

/* The flag of Linux 6.14 (linux/0001).  The patched UAPI headers define
   it in <linux/fcntl.h>, which cannot be included beside the C library's
   <fcntl.h> (both define struct flock); uapi-agrees.c holds this copy to
   the UAPI header's value at build time.  */
#ifndef AT_EXECVE_CHECK
# define AT_EXECVE_CHECK 0x10000
#endif

/* Check the file open at FD: 0, or the errno of the check.  */
int exec_check_fd (int fd);

/* Check the file PATH (opened without following a last symbolic link):
   0, or the errno of the open or of the check.  */
int exec_check_path (const char *path);

/* Check the file PATH by name, not opened by the caller first (so
   without the caller's permission to read it): 0, or the check's errno.
   A last symbolic link is not followed.  */
int exec_check_by_name (const char *path);

#endif
