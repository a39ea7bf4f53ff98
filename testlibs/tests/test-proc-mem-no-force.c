/* /proc/PID/mem cannot write over read-only memory, such as a program's
   own code (the kernel is built with CONFIG_PROC_MEM_NO_FORCE): code that
   ld.so or the kernel let in cannot be rewritten that way.  Writing to
   writable memory still works, which shows that the write path itself is
   open.  One TAP result each.
   Usage: test-proc-mem-no-force [EXPECTED-DIR] (unused)  */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

static volatile int writable_value = 1;

/* A function whose first bytes the test tries to overwrite.  */
static int __attribute__ ((noinline))
victim (void)
{
  return 42;
}

/* Write LEN bytes of DATA at ADDRESS through /proc/self/mem; return 0 or
   the errno value of the failed write.  */
static int
write_self (uintptr_t address, const void *data, size_t len)
{
  int fd = open ("/proc/self/mem", O_RDWR | O_CLOEXEC);
  if (fd < 0)
    return errno;
  ssize_t n = pwrite (fd, data, len, (off_t) address);
  int error = n == (ssize_t) len ? 0 : n < 0 ? errno : EIO;
  close (fd);
  return error;
}

int
main (void)
{
  tap_plan (2);
  int value = 2;
  int error = write_self ((uintptr_t) &writable_value, &value, sizeof value);
  tap_note ("the write: %s", error == 0 ? "written" : strerror (error));
  tap_result (error == 0 && writable_value == 2,
              "a write to writable memory through /proc/self/mem works");
  /* "ret" (0xc3) over the function's first instruction.  */
  const unsigned char ret = 0xc3;
  error = write_self ((uintptr_t) &victim, &ret, sizeof ret);
  tap_note ("the write: %s", error == 0 ? "it was written" : strerror (error));
  tap_result (error != 0 && victim () == 42,
              "a write to the program's code through /proc/self/mem is"
              " refused");
  return tap_failures () == 0 ? 0 : 1;
}
