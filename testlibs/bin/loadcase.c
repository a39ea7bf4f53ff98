/* The program the load matrix runs: loads what it is told to in the way
   it is told to, and says what happened.
     loadcase report            nothing to load (LD_PRELOAD, LD_AUDIT ...)
     loadcase dlopen NAME       dlopen (NAME)
     loadcase dlopen-fd FILE    open FILE as descriptor DLOPEN_FD, dlopen
                                DLOPEN_FD_NAME (/proc/self/fd/101)
     loadcase dlmopen NAME      dlmopen into a new namespace
     loadcase nss               getpwnam through the configured NSS modules
     loadcase gconv             iconv_open to the CHECKEXEC-MARK charset
     loadcase unlock            try to clear SECBIT_EXEC_RESTRICT_FILE:
                                "unlock: refused" (status 0) or
                                "unlock: succeeded" (status 1)
   Exit status 0 when the load worked.  */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <iconv.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "matrix.h"
#include "securebits.h"

static int
report_dlopen (void *handle, const char *name)
{
  if (handle == NULL)
    {
      printf ("dlopen %s: %s\n", name, dlerror ());
      return 1;
    }
  printf ("dlopen %s: loaded\n", name);
  return 0;
}

static int
dlopen_fd (const char *file)
{
  const char *name = DLOPEN_FD_NAME;
  int fd = open (file, O_RDONLY);
  if (fd < 0 || dup2 (fd, DLOPEN_FD) != DLOPEN_FD)
    {
      printf ("open %s: %s\n", file, strerror (errno));
      return 1;
    }
  return report_dlopen (dlopen (name, RTLD_NOW), name);
}

static int
nss_lookup (void)
{
  struct passwd *pwd = getpwnam ("checkexec-nss-probe");
  if (pwd == NULL)
    {
      puts ("getpwnam: no entry");
      return 1;
    }
  printf ("getpwnam: uid %d\n", (int) pwd->pw_uid);
  return 0;
}

static int
gconv_open (void)
{
  iconv_t cd = iconv_open ("CHECKEXEC-MARK//", "UTF-8//");
  if (cd == (iconv_t) -1)
    {
      printf ("iconv_open: failed (%s)\n", strerror (errno));
      return 1;
    }
  iconv_close (cd);
  puts ("iconv_open: opened");
  return 0;
}

int
main (int argc, char **argv)
{
  const char *action = argc > 1 ? argv[1] : "";
  const char *name = argc > 2 ? argv[2] : NULL;
  if (strcmp (action, "report") == 0)
    return 0;
  if (strcmp (action, "unlock") == 0)
    return try_unlock () == 0 ? 0 : 1;
  if (strcmp (action, "nss") == 0)
    return nss_lookup ();
  if (strcmp (action, "gconv") == 0)
    return gconv_open ();
  if (name != NULL && strcmp (action, "dlopen") == 0)
    return report_dlopen (dlopen (name, RTLD_NOW), name);
  if (name != NULL && strcmp (action, "dlopen-fd") == 0)
    return dlopen_fd (name);
  if (name != NULL && strcmp (action, "dlmopen") == 0)
    return report_dlopen (dlmopen (LM_ID_NEWLM, name, RTLD_NOW), name);
  fprintf (stderr, "usage: loadcase report | dlopen NAME | dlopen-fd FILE"
           " | dlmopen NAME | nss | gconv | securebits | unlock\n");
  return 2;
}
