/* The payload: a library an attacker wants loaded.  Its constructor
   appends "loaded" to the file named by $CHECKEXEC_MARK, so a test can tell
   whether it ran.  One object plays every role the tests need: a plain
   library, an audit module, an NSS module, a gconv module and a stand-in
   for the system library libcheckexec-system.so.  */
#include <errno.h>
#include <fcntl.h>
#include <gconv.h>
#include <nss.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__ ((constructor)) static void
leave_mark (void)
{
  const char *mark = getenv ("CHECKEXEC_MARK");
  if (mark == NULL)
    return;
  int fd = open (mark, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
  if (fd < 0)
    return;
  static const char text[] = "loaded\n";
  if (write (fd, text, sizeof text - 1) < 0)
    {
      /* Nothing to do: the test then sees no mark.  */
    }
  close (fd);
}

/* A plain library.  */
int
checkexec_mark (void)
{
  return 42;
}

/* Hijacks libcheckexec-system.so's function.  */
const char *
checkexec_system_library (void)
{
  return "the payload";
}

/* An audit module: accept the interface version ld.so offers.  */
unsigned int
la_version (unsigned int version)
{
  return version;
}

/* An NSS module (as libnss_checkexecmark.so.2): every name exists.  */
enum nss_status
_nss_checkexecmark_getpwnam_r (const char *name, struct passwd *pwd,
                               char *buffer, size_t buflen, int *errnop)
{
  static char empty[] = "";
  size_t len = strlen (name) + 1;
  if (len > buflen)
    {
      *errnop = ERANGE;
      return NSS_STATUS_TRYAGAIN;
    }
  pwd->pw_name = memcpy (buffer, name, len);
  pwd->pw_passwd = empty;
  pwd->pw_uid = 4242;
  pwd->pw_gid = 4242;
  pwd->pw_gecos = empty;
  pwd->pw_dir = empty;
  pwd->pw_shell = empty;
  return NSS_STATUS_SUCCESS;
}

/* A gconv module: loading is all that matters, so conversions fail.  */
int
gconv_init (struct __gconv_step *step)
{
  (void) step;
  return __GCONV_NOCONV;
}

int
gconv (struct __gconv_step *step, struct __gconv_step_data *data,
       const unsigned char **inptrp, const unsigned char *inend,
       unsigned char **outbufstart, size_t *irreversible, int do_flush,
       int consume_incomplete)
{
  (void) step, (void) data, (void) inptrp, (void) inend;
  (void) outbufstart, (void) irreversible, (void) do_flush;
  (void) consume_incomplete;
  return __GCONV_NOCONV;
}

void
gconv_end (struct __gconv_step *step)
{
  (void) step;
}
