/* The user a case of a matrix runs as.  */
#include "case-user.h"

#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <unistd.h>

int
matrix_users (bool listing, struct case_user users[MATRIX_USER_COUNT])
{
  struct passwd *tester = getpwnam ("tester");
  if (!listing && (tester == NULL || getuid () != 0))
    {
      printf ("1..1\nnot ok 1 - the matrix runs as root and needs the user"
              " tester\n");
      return -1;
    }
  /* Only whether a user is root matters to which cases apply.  */
  users[0] = (struct case_user) { "root", 0, 0 };
  users[1] = (struct case_user) { "tester",
                                  tester != NULL ? tester->pw_uid : 65534,
                                  tester != NULL ? tester->pw_gid : 65534 };
  return 0;
}

int
become_case_user (const struct case_user *user)
{
  if (user->uid == 0)
    return 0;
  if (setgroups (1, &user->gid) != 0
      || setresgid (user->gid, user->gid, user->gid) != 0
      || setresuid (user->uid, user->uid, user->uid) != 0)
    {
      printf ("# becoming %s: %m\n", user->name);
      return -1;
    }
  return 0;
}
