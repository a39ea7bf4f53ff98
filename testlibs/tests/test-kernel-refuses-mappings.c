/* The ways past ld.so that never ask it, refused by the kernel under the
   enforced login's profile (set-exec -f -l -m): python3 mapping a file, a
   memfd or shared anonymous memory executable, and a static program whose
   own (stock) loader dlopens a library, all refused by Exec Restrict;
   python3 growing its heap with READ_IMPLIES_EXEC to run code it wrote
   there, refused by MDWE (linux/0016).  The file is root's, 0644, on a
   mount that allows execution: only its missing execute bit makes the
   check refuse it.  Each attack runs as root and as the test user, with
   the bits clear (it must work) and under the profile (the kernel must
   refuse it).  One TAP result each, after one for the module's place
   among the running LSMs.  Runs as root.
   Usage: test-kernel-refuses-mappings [EXPECTED-DIR] (unused)  */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "command.h"
#include "files.h"
#include "tap.h"

#define PAYLOAD "/usr/lib/checkexec/payload"
#define MAPS_DIR "/var/lib/checkexec/maps"
#define PLAIN_LIBRARY MAPS_DIR "/libcheckexec-bare-0644.so"

/* Linux 6.8's system call and linux/0014's LSM id (the build host's
   headers may be older).  */
#ifndef SYS_lsm_list_modules
# define SYS_lsm_list_modules 461
#endif
#define LSM_ID_EXECRESTRICT 114

/* Map what argv[1] names (a file, "memfd" or "shared-anonymous") with
   PROT_READ | PROT_EXEC and say whether it worked.  */
static const char map_program[]
    = "import mmap, os, sys\n"
      "what = sys.argv[1]\n"
      "flags, fd = mmap.MAP_PRIVATE, -1\n"
      "if what == 'memfd':\n"
      "    fd = os.memfd_create('code')\n"
      "    os.write(fd, b'\\xc3' * mmap.PAGESIZE)\n"
      "elif what == 'shared-anonymous':\n"
      "    flags = mmap.MAP_SHARED\n"
      "else:\n"
      "    fd = os.open(what, os.O_RDONLY)\n"
      "try:\n"
      "    mmap.mmap(fd, mmap.PAGESIZE, flags=flags,\n"
      "              prot=mmap.PROT_READ | mmap.PROT_EXEC)\n"
      "    print('mapped')\n"
      "except OSError as e:\n"
      "    print('refused:', e)\n";

/* Grow the heap with READ_IMPLIES_EXEC in the personality (new brk memory
   is then writable and executable), put "mov eax, 42; ret" there and call
   it.  The personality is reset at once: under MDWE every later
   allocation would fail with it.  */
static const char brk_program[]
    = "import ctypes, os\n"
      "libc = ctypes.CDLL(None, use_errno=True)\n"
      "libc.sbrk.restype = ctypes.c_void_p\n"
      "libc.sbrk.argtypes = [ctypes.c_long]\n"
      "libc.personality(0x0400000)\n"
      "base = libc.sbrk(0x20000)\n"
      "error = ctypes.get_errno()\n"
      "libc.personality(0)\n"
      "if base == ctypes.c_void_p(-1).value:\n"
      "    raise SystemExit('refused: sbrk: ' + os.strerror(error))\n"
      "page = (base + 0xfff) & ~0xfff\n"
      "ctypes.memmove(page, b'\\xb8\\x2a\\x00\\x00\\x00\\xc3', 6)\n"
      "print('returned', ctypes.CFUNCTYPE(ctypes.c_int)(page)())\n";

struct attack
{
  const char *name;
  const char *argv[5];
  const char *worked;   /* the output when it worked */
  const char *refused;  /* the output when the kernel refused the mapping */
};

static const struct attack attacks[] = {
  { "python3 maps root's 0644 file executable",
    { "/usr/bin/python3", "-c", map_program, PLAIN_LIBRARY },
    "mapped", "refused: [Errno 13] Permission denied" },
  { "python3 maps a memfd executable",
    { "/usr/bin/python3", "-c", map_program, "memfd" },
    "mapped", "refused: [Errno 13] Permission denied" },
  { "python3 maps shared anonymous memory executable",
    { "/usr/bin/python3", "-c", map_program, "shared-anonymous" },
    "mapped", "refused: [Errno 13] Permission denied" },
  { "python3 runs code it wrote to a READ_IMPLIES_EXEC heap (brk)",
    { "/usr/bin/python3", "-c", brk_program },
    /* brk(2) reports no error, only a break that did not move.  */
    "returned 42", "refused: sbrk: Cannot allocate memory" },
  { "a static program on Debian's libc.a dlopens root's 0644 library",
    { PAYLOAD "/static-dlopen", PLAIN_LIBRARY },
    "returned 42", "failed to map segment from shared object" },
};

/* Run ATTACK as USER (root needs no runuser), under set-exec -f -l -m
   (the enforced login's profile) if LOCKED, into OUTPUT.  */
static void
run_attack (const struct attack *attack, const char *user, bool locked,
            char *output, size_t len)
{
  const char *argv[16];
  int n = 0;
  if (strcmp (user, "root") != 0)
    {
      argv[n++] = "/usr/sbin/runuser";
      argv[n++] = "-u";
      argv[n++] = user;
      argv[n++] = "--";
    }
  if (locked)
    {
      argv[n++] = "/usr/bin/set-exec";
      argv[n++] = "-f";
      argv[n++] = "-l";
      argv[n++] = "-m";
      argv[n++] = "--";
    }
  for (int i = 0; attack->argv[i] != NULL; i++)
    argv[n++] = attack->argv[i];
  argv[n] = NULL;
  int status = run_command ((char *const *) argv, output, len);
  printf ("# %s as %s, bits %s: status %d\n", attack->name, user,
          locked ? "locked" : "clear", status);
  print_comment (output);
}

/* Whether Exec Restrict is among the running LSMs, as lsm_list_modules(2)
   lists them.  */
static bool
exec_restrict_is_active (void)
{
  uint64_t ids[32];
  uint32_t size = sizeof ids;
  long count = syscall (SYS_lsm_list_modules, ids, &size, 0);
  if (count < 0)
    {
      printf ("# lsm_list_modules: %m\n");
      return false;
    }
  bool found = false;
  printf ("# LSM ids:");
  for (long i = 0; i < count; i++)
    {
      printf (" %llu", (unsigned long long) ids[i]);
      found |= ids[i] == LSM_ID_EXECRESTRICT;
    }
  printf ("\n");
  return found;
}

static void
try_attack (const struct attack *attack, const char *user, bool locked)
{
  char output[8192];
  run_attack (attack, user, locked, output, sizeof output);
  bool worked = strstr (output, attack->worked) != NULL;
  if (locked)
    tap_result (!worked && strstr (output, attack->refused) != NULL,
                "%s, as %s, bits set and locked, MDWE: refused by the"
                " kernel", 
                attack->name, user);
  else
    tap_result (worked, "%s, as %s, bits clear: it works", attack->name,
                user);
}

int
main (void)
{
  static const char *const users[] = { "root", "tester" };
  const size_t attack_count = sizeof attacks / sizeof attacks[0];
  if (getuid () != 0)
    {
      printf ("1..1\nnot ok 1 - test-kernel-refuses-mappings runs as root\n");
      return 1;
    }
  if (make_directory ("/var/lib/checkexec", 0755) != 0
      || make_directory (MAPS_DIR, 0755) != 0
      || copy_file (PAYLOAD "/libcheckexec-bare.so", PLAIN_LIBRARY, 0644)
             != 0)
    return 1;
  tap_plan (1 + (int) (attack_count * 2 * 2));
  tap_result (exec_restrict_is_active (),
              "Exec Restrict (LSM id %d) is an active LSM",
              LSM_ID_EXECRESTRICT);
  for (size_t u = 0; u < 2; u++)
    for (size_t a = 0; a < attack_count; a++)
      {
        try_attack (&attacks[a], users[u], false);
        try_attack (&attacks[a], users[u], true);
      }
  remove_tree (MAPS_DIR);
  return tap_failures () == 0 ? 0 : 1;
}
