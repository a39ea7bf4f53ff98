/* Only root traces processes (Yama ptrace_scope 2): a tracer could answer
   the executability check or PR_GET_SECUREBITS in the traced program's
   place.  As the test user every way to trace or write into one's own
   child is tried and must fail: PTRACE_ATTACH, PTRACE_SEIZE,
   PTRACE_TRACEME, process_vm_writev, writing /proc/PID/mem, and strace
   forging the check's answer.  As root, attaching and strace work.  One
   TAP result per way.  Usage: test-no-ptrace [EXPECTED-DIR] (unused)  */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "attempt.h"
#include "command.h"
#include "tap.h"

/* A child that waits to be traced; its variable is what writes aim at.  */
static volatile int target_value = 1;
static pid_t target;

static void
start_target (void)
{
  target = fork ();
  if (target == 0)
    for (;;)
      pause ();
}

static void
stop_target (void)
{
  kill (target, SIGKILL);
  waitpid (target, NULL, 0);
}

static int
try_attach (void *request)
{
  long rc = ptrace (*(enum __ptrace_request *) request, target, 0, 0);
  if (rc != 0)
    return errno;
  /* An attached target stops; a seized one does not.  */
  if (*(enum __ptrace_request *) request == PTRACE_ATTACH)
    waitpid (target, NULL, __WALL);
  ptrace (PTRACE_DETACH, target, 0, 0);
  return 0;
}

static int
try_traceme (void *unused)
{
  (void) unused;
  return ptrace (PTRACE_TRACEME, 0, 0, 0) == 0 ? 0 : errno;
}

static int
try_vm_write (void *unused)
{
  (void) unused;
  int value = 2;
  struct iovec local = { &value, sizeof value };
  struct iovec remote = { (void *) &target_value, sizeof target_value };
  return process_vm_writev (target, &local, 1, &remote, 1, 0) >= 0 ? 0
                                                                  : errno;
}

static int
try_proc_mem (void *unused)
{
  (void) unused;
  char name[64];
  snprintf (name, sizeof name, "/proc/%d/mem", (int) target);
  int fd = open (name, O_RDWR);
  if (fd < 0)
    return errno;
  int value = 2;
  ssize_t n = pwrite (fd, &value, sizeof value, (off_t) &target_value);
  int error = n < 0 ? errno : 0;
  close (fd);
  return error;
}

/* One attempt on the target, made by this process (its parent: the
   closest relation there is) or, if IN_CHILD, by a child of this
   process on itself.  Refused for the test user, allowed for root.  */
static void
attempt (const char *what, int (*try) (void *), void *closure,
         bool in_child)
{
  bool expect_refused = getuid () != 0;
  int error = in_child ? attempt_in_child (try, closure) : try (closure);
  bool refused = error != 0;
  tap_note ("%s: %s", what,
            error == 0 ? "it succeeded"
            : error < 0 ? "the child crashed" : strerror (error));
  tap_result (refused == expect_refused, "%s is %s", what,
              expect_refused ? "refused" : "allowed");
}

/* strace answering 0 for every execveat: the forged answer of a tracer.  */
static void
strace_forging (void)
{
  char output[4096];
  char *const argv[] = { "/usr/bin/strace", "-f", "-o", "/dev/null", "-e",
                         "inject=execveat:retval=0", "/bin/true", NULL };
  int status = run_command (argv, output, sizeof output);
  bool expect_refused = getuid () != 0;
  tap_note ("strace: status %d", status);
  if (!tap_result ((status != 0) == expect_refused,
                   "strace -e inject=execveat:retval=0 is %s",
                   expect_refused ? "refused" : "allowed"))
    print_comment (output);
}

int
main (void)
{
  enum __ptrace_request attach = PTRACE_ATTACH, seize = PTRACE_SEIZE;
  tap_plan (6);
  start_target ();
  attempt ("PTRACE_ATTACH to one's own child", try_attach, &attach, false);
  attempt ("PTRACE_SEIZE of one's own child", try_attach, &seize, false);
  /* Yama asks the parent (this process) to have CAP_SYS_PTRACE.  */
  attempt ("PTRACE_TRACEME", try_traceme, NULL, true);
  attempt ("process_vm_writev into one's own child", try_vm_write, NULL,
           false);
  attempt ("writing /proc/PID/mem of one's own child", try_proc_mem, NULL,
           false);
  stop_target ();
  strace_forging ();
  return tap_failures () == 0 ? 0 : 1;
}
