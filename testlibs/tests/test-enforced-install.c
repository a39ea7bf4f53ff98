/* An enforced root session (set-exec -f: SECBIT_EXEC_RESTRICT_FILE)
   installs and purges a package whose maintainer scripts use debconf and
   Python (checkexec-script-probe: its postinst sources debconf's confmodule
   and byte-compiles its 0644 module with py3compile, its prerm runs
   py3clean), with dpkg and with apt.  Each time: the session refuses a
   0644 script (it is enforced), the installation succeeds, the postinst
   stored debconf's answer, the module's cache exists and is executable
   once dpkg is done, the module imports in the enforced session (its .pth
   file too, with no report), its perl module (in perl's vendorarch
   directory, which the package makes) loads there, and the purge succeeds
   and leaves nothing.  One TAP result each.  Run as root.
   Usage: test-enforced-install [EXPECTED-DIR] (unused)  */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "command.h"
#include "tap.h"

#define PACKAGE "checkexec-script-probe"
#define DEB "/usr/lib/checkexec/payload/" PACKAGE ".deb"
#define MODULE_DIR "/usr/lib/python3/dist-packages/checkexec_script_probe"
#define CACHE MODULE_DIR "/__pycache__/__init__.cpython-311.pyc"
#define PERL_MODULE \
  "/usr/lib/x86_64-linux-gnu/perl5/5.36/CheckexecScriptProbe.pm"
#define WORD_FILE "/var/lib/" PACKAGE "/word"
#define SCRIPT_0644 "/usr/lib/checkexec/payload/script-payload.sh"

/* How one installer installs and purges.  */
struct installer
{
  const char *name;
  const char *install[6];
  const char *purge[6];
};

static const struct installer installers[] = {
  { "dpkg",
    { "/usr/bin/dpkg", "-i", DEB, NULL },
    { "/usr/bin/dpkg", "--purge", PACKAGE, NULL } },
  { "apt",
    { "/usr/bin/apt-get", "install", "-y", DEB, NULL },
    { "/usr/bin/apt-get", "purge", "-y", PACKAGE, NULL } },
};

/* Run ARGV under set-exec -f; its output into OUTPUT.  Returns the exit
   status.  */
static int
run_enforced (const char *const *argv, char *output, size_t len)
{
  const char *args[16] = { "/usr/bin/set-exec", "-f", "--" };
  int n = 3;
  for (int i = 0; argv[i] != NULL && n < 15; i++)
    args[n++] = argv[i];
  args[n] = NULL;
  return run_command ((char *const *) args, output, len);
}

/* Run ARGV enforced; true if it exits 0, else its output as comments.  */
static bool
succeeds (const char *const *argv)
{
  static char output[65536];
  int status = run_enforced (argv, output, sizeof output);
  if (status != 0)
    {
      tap_note ("%s %s: status %d, output:", argv[0], argv[1], status);
      print_comment (output);
    }
  return status == 0;
}

/* Whether the file NAME holds a line LINE.  */
static bool
file_has_line (const char *name, const char *line)
{
  char buf[256];
  bool found = false;
  FILE *file = fopen (name, "re");
  if (file == NULL)
    {
      tap_note ("%s: %m", name);
      return false;
    }
  while (!found && fgets (buf, sizeof buf, file) != NULL)
    found = strcmp (buf, line) == 0;
  fclose (file);
  return found;
}

/* Whether the enforced session refuses a 0644 script: without that, the
   rest shows nothing.  */
static bool
session_is_enforced (void)
{
  char output[4096];
  const char *argv[] = { "/bin/sh", SCRIPT_0644, NULL };
  int status = run_enforced (argv, output, sizeof output);
  if (status == 0 || strstr (output, "not allowed by the system policy")
                         == NULL)
    {
      tap_note ("sh %s: status %d, output:", SCRIPT_0644, status);
      print_comment (output);
      return false;
    }
  return true;
}

/* Whether the cache of the package's module is there, executable.  */
static bool
cache_is_executable (void)
{
  struct stat st;
  if (stat (CACHE, &st) != 0)
    {
      tap_note ("%s: %m", CACHE);
      return false;
    }
  tap_note ("%s: mode %04o", CACHE, (unsigned) st.st_mode & 07777);
  return (st.st_mode & 0111) == 0111;
}

/* Whether ARGV, run in the enforced session, succeeds and prints GREETING
   with no refusal or report; else its output as comments.  */
static bool
prints_enforced (const char *const *argv, const char *greeting)
{
  char output[4096];
  int status = run_enforced (argv, output, sizeof output);
  if (status != 0 || strstr (output, greeting) == NULL
      || strstr (output, "system policy") != NULL)
    {
      tap_note ("%s: status %d, output:", argv[0], status);
      print_comment (output);
      return false;
    }
  return true;
}

/* Whether the module imports in the enforced session.  */
static bool
module_imports (void)
{
  const char *argv[] = { "/usr/bin/python3", "-c",
                         "import checkexec_script_probe as p; print(p.GREETING)",
                         NULL };
  return prints_enforced (argv, "checkexec-script-probe imported");
}

/* Whether the perl module loads in the enforced session: dpkg's hook gave
   it an execute bit in a directory the package made.  */
static bool
perl_module_loads (void)
{
  const char *argv[] = { "/usr/bin/perl", "-MCheckexecScriptProbe", "-e",
                         "print $CheckexecScriptProbe::GREETING", NULL };
  return prints_enforced (argv, "checkexec-script-probe loaded");
}

static void
install_and_purge (const struct installer *in)
{
  tap_result (session_is_enforced (), "%s: the session refuses a 0644 script",
              in->name);
  tap_result (succeeds (in->install), "%s: installs the package enforced",
              in->name);
  tap_result (file_has_line (WORD_FILE, "debconf-answered\n"),
              "%s: its postinst got debconf's answer", in->name);
  tap_result (cache_is_executable (),
              "%s: py3compile wrote the module's cache, executable after dpkg",
              in->name);
  tap_result (module_imports (), "%s: the module imports enforced", in->name);
  tap_result (perl_module_loads (),
              "%s: the perl module in perl's vendorarch loads enforced",
              in->name);
  tap_result (succeeds (in->purge), "%s: purges the package enforced",
              in->name);
  tap_result (access (MODULE_DIR, F_OK) != 0 && access (WORD_FILE, F_OK) != 0
                  && access (PERL_MODULE, F_OK) != 0,
              "%s: the purge leaves none of its files", in->name);
}

int
main (void)
{
  setenv ("DEBIAN_FRONTEND", "noninteractive", 1);
  tap_plan (2 * 8);
  for (size_t i = 0; i < sizeof installers / sizeof installers[0]; i++)
    install_and_purge (&installers[i]);
  return tap_failures () == 0 ? 0 : 1;
}
