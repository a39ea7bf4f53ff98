/* The user a case of a matrix runs as.  */
#ifndef CHECKEXEC_CASE_USER_H
#define CHECKEXEC_CASE_USER_H

#include <stdbool.h>
#include <sys/types.h>

struct case_user
{
  const char *name;
  uid_t uid;
  gid_t gid;
};

/* The users a matrix runs its cases as: root, then the test user.  */
#define MATRIX_USER_COUNT 2

/* Fill USERS with the matrix's users.  Unless LISTING (only the names of
   the cases are wanted), the matrix must run as root and the test user
   must exist: otherwise this prints a failed result and returns -1.  */
int matrix_users (bool listing, struct case_user users[MATRIX_USER_COUNT]);

/* In a child running as root: become USER for good (nothing to do for
   root).  Returns 0, or -1 after printing why as a TAP comment.  */
int become_case_user (const struct case_user *user);

#endif
