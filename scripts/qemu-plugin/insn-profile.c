/* A TCG plugin for QEMU 7.2 (plugin API version 1): a profile, in executed
   instructions, of what the guest does between two marks it sets.

   A mark is the no-op "nopl 0xC4EC5A0N(%rax)" (bytes 0f 1f 80 0N 5a ec c4),
   which no compiler emits: N = 1 begins a profile, N = 2 ends it.  Between
   them every executed translation block adds its instructions to its start
   address (kernel space) or to one sum for user space.  At the end mark the
   plugin appends to its output file one line "profile N insns=T kernel=K
   user=U blocks=B" (B: the translated blocks executed), then one line
   "VADDR INSNS" per kernel block executed, then "end N".  One vCPU (-smp 1), or the counts of several mix.

   Usage: -plugin PATH/libinsn-profile.so,out=FILE  */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define KERNEL_SPACE 0xffff800000000000ULL
#define MARK_SIZE 7
#define MARK_BEGIN 1
#define MARK_END 2
/* Kernel blocks one profile can name; a profile that executes more fails
   its output rather than mixing blocks.  */
#define SLOTS (1u << 18)

static const unsigned char mark_prefix[] = { 0x0f, 0x1f, 0x80 };
static const unsigned char mark_suffix[] = { 0x5a, 0xec, 0xc4 };

/* What one translated block is: where it starts, how many instructions.  */
struct block
{
  uint64_t vaddr;
  uint64_t insns;
};

struct slot
{
  uint64_t vaddr;
  uint64_t insns;
};

static FILE *out;
static bool profiling;
static bool overflowed;
static unsigned profiles;
static uint64_t kernel_insns, user_insns, blocks;
static struct slot *slots;

static void
add_kernel_block (uint64_t vaddr, uint64_t insns)
{
  uint32_t i = (uint32_t) ((vaddr * 0x9e3779b97f4a7c15ULL) >> 46) & (SLOTS - 1);
  for (uint32_t probes = 0; probes < SLOTS; probes++, i = (i + 1) & (SLOTS - 1))
    if (slots[i].vaddr == vaddr || slots[i].vaddr == 0)
      {
        slots[i].vaddr = vaddr;
        slots[i].insns += insns;
        return;
      }
  overflowed = true;
}

static void
on_block (unsigned int vcpu, void *data)
{
  const struct block *block = data;
  (void) vcpu;
  if (!profiling)
    return;
  blocks++;
  if (block->vaddr >= KERNEL_SPACE)
    {
      kernel_insns += block->insns;
      add_kernel_block (block->vaddr, block->insns);
    }
  else
    user_insns += block->insns;
}

static void
begin_profile (void)
{
  memset (slots, 0, SLOTS * sizeof *slots);
  kernel_insns = user_insns = blocks = 0;
  overflowed = false;
  profiling = true;
}

static void
end_profile (void)
{
  if (!profiling)
    return;
  profiling = false;
  profiles++;
  fprintf (out, "profile %u insns=%" PRIu64 " kernel=%" PRIu64
           " user=%" PRIu64 " blocks=%" PRIu64 "%s\n", profiles,
           kernel_insns + user_insns, kernel_insns, user_insns, blocks,
           overflowed ? " overflowed" : "");
  for (uint32_t i = 0; i < SLOTS; i++)
    if (slots[i].vaddr != 0)
      fprintf (out, "%" PRIx64 " %" PRIu64 "\n", slots[i].vaddr,
               slots[i].insns);
  fprintf (out, "end %u\n", profiles);
  fflush (out);
}

static void
on_mark (unsigned int vcpu, void *data)
{
  (void) vcpu;
  if ((uintptr_t) data == MARK_BEGIN)
    begin_profile ();
  else
    end_profile ();
}

/* The mark that INSN is (MARK_BEGIN or MARK_END), or 0.  */
static int
mark_of (const struct qemu_plugin_insn *insn)
{
  const unsigned char *bytes = qemu_plugin_insn_data (insn);
  if (qemu_plugin_insn_size (insn) != MARK_SIZE
      || memcmp (bytes, mark_prefix, sizeof mark_prefix) != 0
      || memcmp (bytes + 4, mark_suffix, sizeof mark_suffix) != 0)
    return 0;
  return bytes[3] == MARK_BEGIN || bytes[3] == MARK_END ? bytes[3] : 0;
}

static void
on_translation (qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
  struct block *block = malloc (sizeof *block);
  (void) id;
  if (block == NULL)
    abort ();
  block->vaddr = qemu_plugin_tb_vaddr (tb);
  block->insns = qemu_plugin_tb_n_insns (tb);
  qemu_plugin_register_vcpu_tb_exec_cb (tb, on_block, QEMU_PLUGIN_CB_NO_REGS,
                                        block);
  for (size_t i = 0; i < block->insns; i++)
    {
      struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn (tb, i);
      int mark = mark_of (insn);
      if (mark != 0)
        qemu_plugin_register_vcpu_insn_exec_cb (insn, on_mark,
                                                QEMU_PLUGIN_CB_NO_REGS,
                                                (void *) (uintptr_t) mark);
    }
}

static void
at_plugin_exit (qemu_plugin_id_t id, void *data)
{
  (void) id;
  (void) data;
  fclose (out);
}

QEMU_PLUGIN_EXPORT int
qemu_plugin_install (qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                     char **argv)
{
  const char *name = NULL;
  for (int i = 0; i < argc; i++)
    if (strncmp (argv[i], "out=", 4) == 0)
      name = argv[i] + 4;
  if (name == NULL || strcmp (info->target_name, "x86_64") != 0)
    {
      fprintf (stderr, "insn-profile: usage: -plugin PATH,out=FILE"
                       " (x86_64 guests only)\n");
      return -1;
    }
  out = fopen (name, "w");
  slots = calloc (SLOTS, sizeof *slots);
  if (out == NULL || slots == NULL)
    {
      perror (name);
      return -1;
    }
  qemu_plugin_register_vcpu_tb_trans_cb (id, on_translation);
  qemu_plugin_register_atexit_cb (id, at_plugin_exit, NULL);
  return 0;
}
