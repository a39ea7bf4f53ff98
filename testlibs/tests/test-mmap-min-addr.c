/* The lowest 64 KiB of the address space cannot be mapped by a user, so
   that a kernel bug that follows a NULL (or small) pointer cannot be
   steered into memory the user put there: vm.mmap_min_addr is 65536,
   Debian's value (linux/guest-differences: DEFAULT_MMAP_MIN_ADDR; the
   x86_64_defconfig kernel had 4096).  A fixed mapping at 4 KiB and at
   60 KiB is refused; one at 64 KiB works, which shows the refusal is the
   limit's.  One TAP result each.
   Usage: test-mmap-min-addr [EXPECTED-DIR] (unused)  */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tap.h"

#define MIN_ADDR 65536UL

/* The value of vm.mmap_min_addr, or -1 if it cannot be read.  */
static long
read_mmap_min_addr (void)
{
  FILE *f = fopen ("/proc/sys/vm/mmap_min_addr", "re");
  long value = -1;
  if (f == NULL)
    return -1;
  if (fscanf (f, "%ld", &value) != 1)
    value = -1;
  fclose (f);
  return value;
}

/* Map one anonymous page at exactly ADDRESS; return 0 (and unmap it) or
   the errno value of the refusal.  MAP_FIXED_NOREPLACE: nothing that is
   mapped there already is replaced.  */
static int
map_page_at (uintptr_t address)
{
  long page = sysconf (_SC_PAGESIZE);
  void *p = mmap ((void *) address, (size_t) page, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (p == MAP_FAILED)
    return errno;
  int error = p == (void *) address ? 0 : EFAULT;
  munmap (p, (size_t) page);
  return error;
}

/* One result: a page at ADDRESS is refused (WANT_REFUSED) or mapped.  */
static void
check_page_at (uintptr_t address, bool want_refused)
{
  int error = map_page_at (address);
  tap_note ("a page at %#lx: %s", (unsigned long) address,
            error == 0 ? "mapped" : strerror (error));
  if (want_refused)
    tap_result (error == EPERM || error == EACCES,
                "a page at %#lx is refused", (unsigned long) address);
  else
    tap_result (error == 0, "a page at %#lx is mapped",
                (unsigned long) address);
}

int
main (void)
{
  tap_plan (4);
  long value = read_mmap_min_addr ();
  tap_note ("vm.mmap_min_addr: %ld", value);
  tap_result (value == (long) MIN_ADDR, "vm.mmap_min_addr is %lu", MIN_ADDR);
  check_page_at (0x1000, true);
  check_page_at (MIN_ADDR - 0x1000, true);
  check_page_at (MIN_ADDR, false);
  return tap_failures () == 0 ? 0 : 1;
}
