/* The routes: every way the tests get ld.so (or libc on its behalf) to
   load the payload.  */
#include "matrix.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "files.h"

#define LDSO "/lib64/ld-linux-x86-64.so.2"
#define SYSTEM_LIBRARY "/usr/lib/x86_64-linux-gnu/libcheckexec-system.so"
#define SYMLINK "/run/checkexec/link.so"

/* Append TEMPLATE to *OUT (of *LEFT bytes) with the placeholders
   replaced.  Returns the start of the copy, or NULL if it does not fit.  */
static const char *
expand (const char *template, const char *dir, const char *file, char **out,
        size_t *left)
{
  const char *start = *out;
  if (*left == 0)
    return NULL;
  const char *base = strrchr (file, '/') != NULL ? strrchr (file, '/') + 1
                                                 : file;
  while (*template != '\0')
    {
      const char *value = NULL;
      size_t skip = 1;
      if (strncmp (template, "@FILE@", 6) == 0)
        value = file, skip = 6;
      else if (strncmp (template, "@DIR@", 5) == 0)
        value = dir, skip = 5;
      else if (strncmp (template, "@BASE@", 6) == 0)
        value = base, skip = 6;
      size_t len = value != NULL ? strlen (value) : 1;
      if (len + 1 > *left)
        return NULL;
      memcpy (*out, value != NULL ? value : template, len);
      *out += len, *left -= len, template += skip;
    }
  **out = '\0';
  (*out)++, (*left)--;
  return start;
}

int
route_command (const struct route *route, const char *dir, const char *file,
              const char **argv, const char **env, char *buf, size_t len)
{
  int n = 0;
  for (; n < ROUTE_ARGS - 1 && route->argv[n] != NULL; n++)
    if ((argv[n] = expand (route->argv[n], dir, file, &buf, &len)) == NULL)
      return -1;
  argv[n] = NULL;
  env[0] = route->env != NULL ? expand (route->env, dir, file, &buf, &len)
                             : NULL;
  env[1] = NULL;
  return route->env != NULL && env[0] == NULL ? -1 : 0;
}

static int
link_needed_dir (const char *dir, const char *file)
{
  (void) file;
  return replace_symlink (dir, NEEDED_LINK);
}

static int
link_to_file (const char *dir, const char *file)
{
  (void) dir;
  return replace_symlink (file, SYMLINK);
}

/* The child runs in the payload's directory (/proc/self/fd for a memfd).  */
static int
enter_file_directory (const char *dir, const char *file)
{
  (void) dir;
  char copy[PATH_MAX];
  snprintf (copy, sizeof copy, "%s", file);
  if (chdir (dirname (copy)) != 0)
    {
      printf ("# chdir %s: %m\n", copy);
      return -1;
    }
  return 0;
}

static int
write_ld_so_preload (const char *dir, const char *file)
{
  (void) dir;
  char line[PATH_MAX + 2];
  snprintf (line, sizeof line, "%s\n", file);
  return write_file ("/etc/ld.so.preload", line);
}

static int
copy_origin_program (const char *dir, const char *file)
{
  (void) file;
  char to[PATH_MAX];
  snprintf (to, sizeof to, "%s/origin-prog", dir);
  return copy_file (PAYLOAD_DIR "/origin-prog", to, 0755);
}

static int
write_nsswitch (const char *dir, const char *file)
{
  (void) file;
  char name[PATH_MAX];
  snprintf (name, sizeof name, "%s/nsswitch.conf", dir);
  return write_file (name, "passwd: checkexecmark\n");
}

/* In a private mount namespace, the case's nsswitch.conf is the
   system's.  */
static int
mount_nsswitch (const char *dir, const char *file)
{
  (void) file;
  char name[PATH_MAX];
  snprintf (name, sizeof name, "%s/nsswitch.conf", dir);
  if (unshare (CLONE_NEWNS) != 0
      || mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0
      || mount (name, "/etc/nsswitch.conf", NULL, MS_BIND, NULL) != 0)
    {
      printf ("# mounting %s on /etc/nsswitch.conf: %m\n", name);
      return -1;
    }
  return 0;
}

static int
write_gconv_modules (const char *dir, const char *file)
{
  (void) file;
  char name[PATH_MAX];
  snprintf (name, sizeof name, "%s/gconv-modules", dir);
  return write_file (name,
                     "module INTERNAL CHECKEXEC-MARK// checkexec-mark 1\n"
                     "module CHECKEXEC-MARK// INTERNAL checkexec-mark 1\n");
}

#define LIB "libcheckexec-mark.so"
#define REPORT LOADCASE, "report"

const struct route matrix_routes[] = {
  { .name = "DT_NEEDED", .naming = BY_DIRECTORY, .file_name = LIB,
    .argv = { PAYLOAD_DIR "/needs-mark" }, .prepare_root = link_needed_dir },
  { .name = "DT_NEEDED (transitive)", .naming = BY_DIRECTORY,
    .file_name = LIB, .argv = { PAYLOAD_DIR "/needs-mid" },
    .prepare_root = link_needed_dir },
  { .name = "dlopen (absolute)", .naming = BY_FILE, .file_name = LIB,
    .argv = { LOADCASE, "dlopen", "@FILE@" } },
  { .name = "dlopen (relative)", .naming = BY_FILE, .file_name = LIB,
    .argv = { LOADCASE, "dlopen", "./@BASE@" },
    .prepare_child = enter_file_directory },
  { .name = "dlopen (search path)", .naming = BY_DIRECTORY, .file_name = LIB,
    .argv = { LOADCASE, "dlopen", LIB }, .env = "LD_LIBRARY_PATH=@DIR@" },
  { .name = "dlopen (/proc/self/fd/N)", .naming = BY_FILE, .file_name = LIB,
    .loaded_as = DLOPEN_FD_NAME,
    .argv = { LOADCASE, "dlopen-fd", "@FILE@" } },
  { .name = "dlopen (symlink)", .naming = BY_FILE, .file_name = LIB,
    .loaded_as = SYMLINK, .argv = { LOADCASE, "dlopen", SYMLINK },
    .prepare_root = link_to_file },
  { .name = "dlmopen", .naming = BY_FILE, .file_name = LIB,
    .argv = { LOADCASE, "dlmopen", "@FILE@" } },
  { .name = "LD_PRELOAD", .naming = BY_FILE, .file_name = LIB,
    .argv = { REPORT }, .env = "LD_PRELOAD=@FILE@" },
  { .name = "LD_PRELOAD (several)", .naming = BY_FILE, .file_name = LIB,
    .argv = { REPORT }, .env = "LD_PRELOAD=" SYSTEM_LIBRARY ":@FILE@" },
  { .name = "ld.so --preload", .naming = BY_FILE, .file_name = LIB,
    .argv = { LDSO, "--preload", "@FILE@", REPORT } },
  { .name = "/etc/ld.so.preload", .naming = BY_FILE, .file_name = LIB,
    .root_only = true, .argv = { REPORT },
    .prepare_root = write_ld_so_preload },
  { .name = "LD_AUDIT", .naming = BY_FILE, .file_name = LIB,
    .argv = { REPORT }, .env = "LD_AUDIT=@FILE@" },
  { .name = "ld.so --audit", .naming = BY_FILE, .file_name = LIB,
    .argv = { LDSO, "--audit", "@FILE@", REPORT } },
  { .name = "ld.so PROGRAM", .naming = BY_FILE, .file_name = "markprog",
    .payload_is_program = true, .argv = { LDSO, "@FILE@" } },
  { .name = "LD_LIBRARY_PATH hijack", .naming = BY_DIRECTORY,
    .file_name = "libcheckexec-system.so",
    .silent_refusal = "using the system library",
    .argv = { PAYLOAD_DIR "/uses-syslib" }, .env = "LD_LIBRARY_PATH=@DIR@" },
  { .name = "$ORIGIN RPATH hijack", .naming = BY_DIRECTORY, .file_name = LIB,
    .execs_from_directory = true, .argv = { "@DIR@/origin-prog" },
    .prepare_root = copy_origin_program },
  { .name = "NSS module (nsswitch.conf)", .naming = BY_DIRECTORY,
    .file_name = "libnss_checkexecmark.so.2", .root_only = true,
    .silent_refusal = "getpwnam: no entry", .argv = { LOADCASE, "nss" },
    .env = "LD_LIBRARY_PATH=@DIR@", .prepare_root = write_nsswitch,
    .prepare_child = mount_nsswitch },
  { .name = "gconv module (GCONV_PATH)", .naming = BY_DIRECTORY,
    .file_name = "checkexec-mark.so", .silent_refusal = "iconv_open: failed",
    .argv = { LOADCASE, "gconv" }, .env = "GCONV_PATH=@DIR@",
    .prepare_root = write_gconv_modules },
  /* Scripts, not -c or -e: an interpreter that cannot read its securebits
     enforces SECBIT_EXEC_DENY_INTERACTIVE too.  */
  { .name = "python3 ctypes.CDLL", .naming = BY_FILE, .file_name = LIB,
    .argv = { "/usr/bin/python3", "/usr/lib/checkexec/payload/ctypes-cdll.py",
              "@FILE@" } },
  { .name = "perl DynaLoader", .naming = BY_FILE, .file_name = LIB,
    .argv = { "/usr/bin/perl", "/usr/lib/checkexec/payload/dl-load-file.pl",
              "@FILE@" } },
};

const size_t matrix_route_count = sizeof matrix_routes / sizeof matrix_routes[0];
