/* libffi's closures work under Exec Restrict and MDWE, and need nothing a
   locked-down process cannot have.  Every file of the system that has
   libffi.so.8 in its DT_NEEDED is a user of libffi; each is exercised by
   payload/ffi-closures.py under set-exec -f -l -m (SECBIT_EXEC_RESTRICT_FILE
   locked, MDWE), which builds closures through it and calls them, then
   shows the mappings of the process: none may be writable and executable,
   of a memfd or of a deleted file (what libffi built without static
   trampolines needs).  A user with no exercise here fails, so that a new
   one is not missed.  One TAP result per user.  Run as root and as the
   test user.  Usage: test-ffi-closures [EXPECTED-DIR] (unused)  */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "elf-needed.h"
#include "tap.h"

#define LIBFFI "libffi.so.8"
#define CLOSURES_SCRIPT "/usr/lib/checkexec/payload/ffi-closures.py"
#define MAX_USERS 64

/* The users of libffi the image is known to have: a part of their file
   name, and the exercise of ffi-closures.py that goes through them.  */
static const struct
{
  const char *name_part;
  const char *exercise;
} exercises[] = {
  { "/_ctypes.cpython-", "ctypes" },   /* python3's ctypes callbacks */
  { "/libp11-kit.so.", "p11-kit" },    /* gnutls's (apt's) PKCS#11 modules */
};

static const char *const roots[] = { "/usr/bin", "/usr/sbin", "/usr/lib",
                                     "/usr/libexec", "/usr/local" };

static char *users[MAX_USERS];
static int user_count;

/* nftw's callback: note a regular file that needs libffi.  */
static int
note_user (const char *path, const struct stat *st, int type,
           struct FTW *ftw)
{
  (void) st;
  (void) ftw;
  if (type == FTW_F && elf_needs (path, LIBFFI))
    {
      if (user_count == MAX_USERS)
        {
          printf ("# more than %d users of %s\n", MAX_USERS, LIBFFI);
          return 1;
        }
      users[user_count++] = strdup (path);
    }
  return 0;
}

/* The exercise of the user at PATH, or NULL.  */
static const char *
exercise_of (const char *path)
{
  for (size_t i = 0; i < sizeof exercises / sizeof exercises[0]; i++)
    if (strstr (path, exercises[i].name_part) != NULL)
      return exercises[i].exercise;
  return NULL;
}

/* Whether the closures of EXERCISE work enforced, with no mapping they
   must not need.  */
static bool
closures_work (const char *exercise)
{
  char output[16384], expected[64];
  char *const argv[] = { "/usr/bin/set-exec", "-f", "-l", "-m", "--",
                         "/usr/bin/python3", CLOSURES_SCRIPT,
                         (char *) exercise, NULL };
  int status = run_command (argv, output, sizeof output);
  snprintf (expected, sizeof expected, "closure %s: ok", exercise);
  print_comment (output);
  return status == 0 && strstr (output, expected) != NULL
         && strstr (output, "mapping: ") == NULL;
}

int
main (void)
{
  for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++)
    if (nftw (roots[i], note_user, 32, FTW_PHYS | FTW_MOUNT) > 0)
      return 1;
  if (user_count == 0)
    {
      printf ("Bail out! no file of the system needs %s\n", LIBFFI);
      return 1;
    }
  tap_plan (user_count);
  for (int i = 0; i < user_count; i++)
    {
      const char *exercise = exercise_of (users[i]);
      const char *base = strrchr (users[i], '/') + 1;
      if (exercise == NULL)
        {
          tap_note ("%s needs %s, and this test has no exercise for it",
                    users[i], LIBFFI);
          tap_result (false, "libffi user %s: closures work enforced", base);
          continue;
        }
      tap_note ("%s: exercise %s", users[i], exercise);
      tap_result (closures_work (exercise),
                  "libffi user %s: closures work enforced", base);
    }
  return tap_failures () == 0 ? 0 : 1;
}
