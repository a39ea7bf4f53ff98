/* make bench-profile's guest program: sets the marks of the TCG plugin
   scripts/qemu-plugin/insn-profile.c around what it profiles, and prints
   one record per profile, in the plugin's order: "part=profile seq=N
   what=WHAT calls=N" (what it did, and how many checks or calls that made).
   Profiles, ROUNDS of each: CALLS allowed checks, faccessat(X_OK) and
   open+close of one file in a loop; the start-up of the program with 100
   libraries with the bits clear, enforcing, and enforcing in ld.so alone.
   Each profiled run follows one that is not, so that both see warm caches.
   The plugin counts whatever the vCPU runs, other processes too: the host
   keeps the round of each profile with the fewest instructions.
   Run as root.  Usage: checkexec-profile  */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "exec-check.h"
#include "spawn.h"

#define CHECKED "/usr/lib/checkexec/bin/loadcase"
#define NEED_100 "/usr/lib/checkexec/bench/need-100"
#define CALLS 1000
#define ROUNDS 3

enum loop { CHECK_LOOP, FACCESSAT_LOOP, OPEN_CLOSE_LOOP, LOOPS };
static const char *const loop_names[LOOPS] = {
  "allowed check", "faccessat(X_OK)", "open+close",
};

static int profiles;

/* The plugin's marks: no-ops with a displacement no compiler emits.  */
static void
mark_begin (void)
{
  __asm__ volatile (".byte 0x0f, 0x1f, 0x80, 0x01, 0x5a, 0xec, 0xc4"
                    ::: "memory");
}

static void
mark_end (void)
{
  __asm__ volatile (".byte 0x0f, 0x1f, 0x80, 0x02, 0x5a, 0xec, 0xc4"
                    ::: "memory");
}

/* CALLS calls of the loop's kind; how many failed.  */
static int
run_loop (enum loop loop, int fd)
{
  int failed = 0;
  for (int i = 0; i < CALLS; i++)
    if (loop == CHECK_LOOP)
      failed += exec_check_fd (fd) != 0;
    else if (loop == FACCESSAT_LOOP)
      failed += faccessat (AT_FDCWD, CHECKED, X_OK, 0) != 0;
    else
      {
        int opened = open (CHECKED, O_RDONLY | O_CLOEXEC);
        failed += opened < 0 || close (opened) != 0;
      }
  return failed;
}

static int
profile_loop (enum loop loop, int fd)
{
  run_loop (loop, fd);
  mark_begin ();
  int failed = run_loop (loop, fd);
  mark_end ();
  printf ("part=profile\tseq=%d\twhat=%s\tcalls=%d\n", ++profiles,
          loop_names[loop], CALLS);
  return failed == 0 ? 0 : -1;
}

static int
profile_startup (enum config c)
{
  static const char *const args[] = { NEED_100, NULL };
  spawn_timed (c, args, NULL, 0);
  mark_begin ();
  double ns = spawn_timed (c, args, NULL, 0);
  mark_end ();
  printf ("part=profile\tseq=%d\twhat=100 libraries, %s\tcalls=1\n",
          ++profiles, config_names[c]);
  return ns < 0 ? -1 : 0;
}

int
main (void)
{
  static const enum config configs[] = { CLEAR, ENFORCING, TUNABLE_ENFORCING };
  int rc = 0, fd = open (CHECKED, O_RDONLY | O_CLOEXEC);
  if (fd < 0 || exec_check_fd (fd) != 0)
    {
      printf ("error: the check of %s must pass\n", CHECKED);
      return 1;
    }
  for (int round = 0; round < ROUNDS; round++)
    {
      for (int loop = 0; loop < LOOPS; loop++)
        rc |= profile_loop (loop, fd);
      for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++)
        rc |= profile_startup (configs[i]);
    }
  if (rc != 0)
    printf ("error: a profiled call or start-up failed\n");
  return rc == 0 ? 0 : 1;
}
