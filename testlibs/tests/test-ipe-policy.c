/* IPE answers the check (linux/0021): under a signed IPE policy that
   denies EXECUTE of two fs-verity digests, the check of the denied library
   fails with EACCES and is audited by IPE in hook BPRM_CREDS_FOR_EXEC, an
   execution of the denied program fails, and ld.so under
   SECBIT_EXEC_RESTRICT_FILE refuses the library; a copy with another
   digest passes and loads.  The policy is signed with the test key that
   the guest kernel trusts (linux/checkexec.config); the files live on a
   small ext4 with the verity feature, on a loop device.  A policy stays
   active until the boot ends: this test has a boot of its own, as root.
   Usage: test-ipe-policy [EXPECTED-DIR] (unused)  */
#include <errno.h>
#include <fcntl.h>
#include <linux/fsverity.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "command.h"
#include "exec-check.h"
#include "files.h"
#include "kernel-log.h"
#include "policy-probes.h"
#include "tap.h"

#define LIB "/usr/lib/checkexec"
#define IPE_DIR "/sys/kernel/security/ipe"
#define POLICY_NAME "checkexec_test"
#define KEY LIB "/ipe/test-key.pem"
#define CERT LIB "/ipe/test-cert.pem"
#define VERITY_IMAGE "/run/checkexec-ipe.img"
#define VERITY_DIR "/run/checkexec-ipe"
#define DENIED VERITY_DIR "/denied.so"
#define ALLOWED VERITY_DIR "/allowed.so"
#define DENIED_PROGRAM VERITY_DIR "/denied-program"
#define POLICY "/run/checkexec-ipe-policy"
#define SIGNED_POLICY "/run/checkexec-ipe-policy.p7b"

/* SHA-256 digests, in hex.  */
typedef char digest_hex[2 * 32 + 1];

static bool
make_verity_file_system (void)
{
  const char *truncate[] = { "/usr/bin/truncate", "-s", "32M", VERITY_IMAGE,
                             NULL };
  const char *mkfs[] = { "/usr/sbin/mkfs.ext4", "-q", "-F", "-b", "4096",
                         "-O", "verity", VERITY_IMAGE, NULL };
  const char *mount[] = { "/usr/bin/mount", "-o", "loop,nosuid,nodev",
                          VERITY_IMAGE, VERITY_DIR, NULL };
  return make_directory (VERITY_DIR, 0755) == 0 && command_works (truncate)
         && command_works (mkfs) && command_works (mount);
}

/* Append a line to NAME: the same library with another digest.  */
static int
append_line (const char *name, const char *line)
{
  FILE *f = fopen (name, "ae");
  if (f == NULL || fputs (line, f) == EOF || fclose (f) != 0)
    {
      printf ("# append to %s: %m\n", name);
      return -1;
    }
  return 0;
}

/* Enable fs-verity on NAME and put its digest into HEX.  */
static int
enable_verity (const char *name, digest_hex hex)
{
  struct fsverity_enable_arg arg = {
    .version = 1,
    .hash_algorithm = FS_VERITY_HASH_ALG_SHA256,
    .block_size = 4096,
  };
  struct
  {
    struct fsverity_digest head;
    unsigned char bytes[32];
  } digest = { .head.digest_size = 32 };
  int fd = open (name, O_RDONLY | O_CLOEXEC);
  int ok = fd >= 0 && ioctl (fd, FS_IOC_ENABLE_VERITY, &arg) == 0
           && ioctl (fd, FS_IOC_MEASURE_VERITY, &digest) == 0;
  if (!ok)
    printf ("# fs-verity on %s: %m\n", name);
  if (fd >= 0)
    close (fd);
  for (int i = 0; ok && i < 32; i++)
    snprintf (hex + 2 * i, 3, "%02x", digest.bytes[i]);
  return ok ? 0 : -1;
}

static int
set_up_files (digest_hex denied, digest_hex denied_program,
              digest_hex allowed)
{
  const char *library = LIB "/payload/libcheckexec-bare.so";
  if (copy_file (library, DENIED, 0755) != 0
      || copy_file (library, ALLOWED, 0755) != 0
      || append_line (ALLOWED, "another digest\n") != 0
      || copy_file (LIB "/payload/static-dlopen", DENIED_PROGRAM, 0755) != 0)
    return -1;
  return enable_verity (DENIED, denied) == 0
                 && enable_verity (DENIED_PROGRAM, denied_program) == 0
                 && enable_verity (ALLOWED, allowed) == 0
             ? 0
             : -1;
}

/* Write the policy denying the two digests and sign it.  */
static bool
write_signed_policy (const digest_hex denied, const digest_hex program)
{
  char text[1024];
  snprintf (text, sizeof text,
            "policy_name=" POLICY_NAME " policy_version=0.0.1\n"
            "DEFAULT action=ALLOW\n"
            "op=EXECUTE fsverity_digest=sha256:%s action=DENY\n"
            "op=EXECUTE fsverity_digest=sha256:%s action=DENY\n",
            denied, program);
  print_comment (text);
  const char *sign[] = { "/usr/bin/openssl", "smime", "-sign", "-binary",
                         "-in", POLICY, "-signer", CERT, "-inkey", KEY,
                         "-noattr", "-nodetach", "-nosmimecap", "-outform",
                         "der", "-out", SIGNED_POLICY, NULL };
  return write_file (POLICY, text) == 0 && command_works (sign);
}

/* Copy the file FROM into the securityfs file TO in one write.  */
static bool
write_whole (const char *from, const char *to)
{
  char buf[16384];
  int in = open (from, O_RDONLY | O_CLOEXEC);
  ssize_t len = in < 0 ? -1 : read (in, buf, sizeof buf);
  if (in >= 0)
    close (in);
  int out = open (to, O_WRONLY | O_CLOEXEC);
  bool ok = len > 0 && out >= 0 && write (out, buf, (size_t) len) == len;
  if (!ok)
    printf ("# %s into %s: %m\n", from, to);
  if (out >= 0)
    close (out);
  return ok;
}

static bool
activate_policy (void)
{
  return write_whole (SIGNED_POLICY, IPE_DIR "/new_policy")
         && write_file (IPE_DIR "/policies/" POLICY_NAME "/active", "1") == 0;
}

static const char *
error_name (int error)
{
  return error == 0 ? "passed" : error < 0 ? "other" : strerror (error);
}

int
main (void)
{
  digest_hex denied, program, allowed;
  if (getuid () != 0)
    {
      printf ("1..1\nnot ok 1 - test-ipe-policy runs as root\n");
      return 1;
    }
  tap_plan (10);
  tap_result (access (IPE_DIR "/new_policy", W_OK) == 0,
              "IPE is active (%s)", IPE_DIR);
  tap_result (make_verity_file_system ()
                  && set_up_files (denied, program, allowed) == 0,
              "fs-verity is enabled on the test files on an ext4 with"
              " the verity feature");
  int error = exec_check_path (DENIED);
  tap_note ("the check: %s", error_name (error));
  tap_result (error == 0, "without a policy, the check passes");
  tap_result (write_signed_policy (denied, program) && activate_policy (),
              "IPE takes the policy signed with the kernel's test key and"
              " makes it active");
  error = exec_check_path (DENIED);
  tap_note ("the check: %s", error_name (error));
  tap_result (error == EACCES,
              "the check of the denied library fails with EACCES");
  const char *record[] = { "type=1420 ", "ipe_op=EXECUTE",
                           "ipe_hook=BPRM_CREDS_FOR_EXEC", DENIED, NULL };
  tap_result (kernel_log_has (record),
              "IPE audits the denied check in hook BPRM_CREDS_FOR_EXEC");
  error = execution_error (DENIED_PROGRAM, ALLOWED);
  tap_note ("the execution: %s", error_name (error));
  tap_result (error == EACCES,
              "executing the denied program fails with EACCES");
  tap_result (!dlopen_works (DENIED, true),
              "ld.so under SECBIT_EXEC_RESTRICT_FILE refuses the denied"
              " library");
  error = exec_check_path (ALLOWED);
  tap_note ("the check of the copy: %s", error_name (error));
  tap_result (error == 0 && dlopen_works (ALLOWED, true),
              "a copy with another digest passes the check and ld.so"
              " under the bit loads it");
  tap_result (!dlopen_works (DENIED, false),
              "without the bit, IPE's mmap hook refuses the denied library"
              " too");
  umount (VERITY_DIR);
  unlink (VERITY_IMAGE);
  return tap_failures () == 0 ? 0 : 1;
}
