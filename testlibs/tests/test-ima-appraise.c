/* IMA answers the check (linux/0020): under an appraisal policy for
   BPRM_CHECK on tmpfs, a library there without a valid security.ima hash
   fails AT_EXECVE_CHECK with EACCES, the failure is audited as
   AUDIT_INTEGRITY_USERSPACE (1808, a check: user space enforces) where
   the same failure of an execution is AUDIT_INTEGRITY_DATA (1800), and
   ld.so under SECBIT_EXEC_RESTRICT_FILE refuses to dlopen it while it
   still loads without the bit.  A copy whose hash is right, and a copy on
   the root file system (outside the policy), pass.  The policy can be
   loaded once per boot: this test has a boot of its own, as root.
   Usage: test-ima-appraise [EXPECTED-DIR] (unused)  */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "command.h"
#include "exec-check.h"
#include "files.h"
#include "kernel-log.h"
#include "policy-probes.h"
#include "tap.h"

#define PAYLOAD "/usr/lib/checkexec/payload"
#define SECURITYFS "/sys/kernel/security"
#define IMA_POLICY SECURITYFS "/ima/policy"
/* The appraised tmpfs, and the same library outside it.  */
#define APPRAISED_DIR "/run/checkexec-ima"
#define ROOTFS_DIR "/var/lib/checkexec/ima"
#define ROOTFS_LIBRARY ROOTFS_DIR "/libcheckexec-bare.so"
#define CHECKED APPRAISED_DIR "/checked.so"
#define LOADED APPRAISED_DIR "/loaded.so"
#define HASHED APPRAISED_DIR "/hashed.so"
#define EXECUTED APPRAISED_DIR "/static-dlopen"

/* Appraise what is executed (and checked) from a tmpfs (TMPFS_MAGIC).  */
static const char policy[] = "appraise func=BPRM_CHECK fsmagic=0x01021994\n";

/* Give argv[1] the security.ima of its content: a sha256 digest
   (IMA_XATTR_DIGEST_NG, HASH_ALGO_SHA256).  */
static const char hash_program[]
    = "import hashlib, os, sys\n"
      "data = open(sys.argv[1], 'rb').read()\n"
      "os.setxattr(sys.argv[1], 'security.ima',\n"
      "            b'\\x04\\x04' + hashlib.sha256(data).digest())\n"
      "print('hashed')\n";

static int
set_up_files (void)
{
  if (mkdir (SECURITYFS, 0755) != 0 && errno != EEXIST)
    return -1;
  if (mount ("securityfs", SECURITYFS, "securityfs", 0, NULL) != 0
      && errno != EBUSY)
    printf ("# mount securityfs: %m\n");
  if (make_directory (APPRAISED_DIR, 0755) != 0
      || mount ("tmpfs", APPRAISED_DIR, "tmpfs", MS_NOSUID, "mode=0755")
             != 0)
    {
      printf ("# tmpfs on %s: %m\n", APPRAISED_DIR);
      return -1;
    }
  const char *library = PAYLOAD "/libcheckexec-bare.so";
  if (make_directory ("/var/lib/checkexec", 0755) != 0
      || make_directory (ROOTFS_DIR, 0755) != 0
      || copy_file (library, ROOTFS_LIBRARY, 0755) != 0
      || copy_file (library, CHECKED, 0755) != 0
      || copy_file (library, LOADED, 0755) != 0
      || copy_file (library, HASHED, 0755) != 0
      || copy_file (PAYLOAD "/static-dlopen", EXECUTED, 0755) != 0)
    return -1;
  return 0;
}

static bool
load_policy (void)
{
  int fd = open (IMA_POLICY, O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    {
      printf ("# open %s: %m\n", IMA_POLICY);
      return false;
    }
  ssize_t n = write (fd, policy, strlen (policy));
  if (n != (ssize_t) strlen (policy))
    printf ("# write %s: %m\n", IMA_POLICY);
  /* IMA takes the new policy when the file is closed.  */
  return close (fd) == 0 && n == (ssize_t) strlen (policy);
}

/* Whether the kernel log holds an audit record of TYPE for NAME.  */
static bool
audited (const char *type, const char *name)
{
  char record[32];
  snprintf (record, sizeof record, "type=%s ", type);
  const char *needles[] = { record, name, NULL };
  return kernel_log_has (needles);
}

int
main (void)
{
  if (getuid () != 0)
    {
      printf ("1..1\nnot ok 1 - test-ima-appraise runs as root\n");
      return 1;
    }
  if (set_up_files () != 0)
    return 1;
  tap_plan (11);
  tap_result (exec_check_path (CHECKED) == 0,
              "without a policy, the check of a library on tmpfs passes");
  tap_result (load_policy (), "IMA takes the policy '%.*s'",
              (int) strlen (policy) - 1, policy);
  const char *hash_argv[] = { "/usr/bin/python3", "-c", hash_program,
                              HASHED, NULL };
  tap_result (command_works (hash_argv),
              "root gives a copy the security.ima hash of its content");

  int error = exec_check_path (CHECKED);
  tap_note ("the check: %s", error == 0 ? "it passed" : strerror (error));
  tap_result (error == EACCES,
              "the check of the library without a hash fails with EACCES");
  tap_result (audited ("1808", CHECKED),
              "the failed check is audited as AUDIT_INTEGRITY_USERSPACE"
              " (1808)");
  error = execution_error (EXECUTED, ROOTFS_LIBRARY);
  tap_note ("the execution: %s",
            error == 0 ? "it ran" : error < 0 ? "other" : strerror (error));
  tap_result (error == EACCES,
              "executing a program without a hash fails with EACCES");
  tap_result (audited ("1800", EXECUTED),
              "the failed execution is audited as AUDIT_INTEGRITY_DATA"
              " (1800)");
  tap_result (!dlopen_works (LOADED, true),
              "ld.so under SECBIT_EXEC_RESTRICT_FILE refuses to dlopen it");
  tap_result (dlopen_works (LOADED, false),
              "without the bit, ld.so loads it (the policy appraises"
              " executions only)");
  error = exec_check_path (HASHED);
  tap_note ("the check: %s", error == 0 ? "passed" : strerror (error));
  tap_result (error == 0, "the check of the copy with its hash passes");
  tap_result (exec_check_path (ROOTFS_LIBRARY) == 0
                  && dlopen_works (ROOTFS_LIBRARY, true),
              "outside the policy, the check passes and ld.so under the"
              " bit loads the library");
  umount (APPRAISED_DIR);
  remove_tree (ROOTFS_DIR);
  return tap_failures () == 0 ? 0 : 1;
}
