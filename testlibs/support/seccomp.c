/* Seccomp filters that answer for the kernel.  */
#include "seccomp.h"
#include "exec-check.h"

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

/* Install a filter: the system call NR whose argument ARG (low 32 bits,
   little-endian) matches VALUE (with the jump MATCH: BPF_JEQ or BPF_JSET)
   fails with ERROR; everything else is allowed.  */
static int
forge_error (int nr, int arg, int match, unsigned int value, int error)
{
  struct sock_filter filter[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 3),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
              offsetof (struct seccomp_data, args[0]) + 8 * arg),
    BPF_JUMP (BPF_JMP | match | BPF_K, value, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (error & 0xffff)),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = { sizeof filter / sizeof filter[0], filter };
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
    {
      printf ("# installing a seccomp filter: %m\n");
      return -1;
    }
  return 0;
}

int
forge_securebits_error (int error)
{
  return forge_error (SYS_prctl, 0, BPF_JEQ, PR_GET_SECUREBITS, error);
}

int
forge_check_error (int error)
{
  return forge_error (SYS_execveat, 4, BPF_JSET, AT_EXECVE_CHECK, error);
}
