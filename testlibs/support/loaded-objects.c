#include "loaded-objects.h"

#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

struct build_id_search
{
  const char *suffix;
  char *hex;
  size_t len;
  int found;
};

static int
ends_with (const char *s, const char *suffix)
{
  size_t ls = strlen (s), lsuf = strlen (suffix);
  return ls >= lsuf && strcmp (s + ls - lsuf, suffix) == 0;
}

/* Look for an NT_GNU_BUILD_ID note in the note segment at NOTES.  */
static int
note_build_id (const char *notes, size_t size, char *hex, size_t len)
{
  size_t off = 0;
  while (off + sizeof (ElfW (Nhdr)) <= size)
    {
      const ElfW (Nhdr) *n = (const ElfW (Nhdr) *) (notes + off);
      size_t name_off = off + sizeof *n;
      size_t desc_off = name_off + ((n->n_namesz + 3) & ~3u);
      size_t next = desc_off + ((n->n_descsz + 3) & ~3u);
      if (next > size)
        return -1;
      if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4
          && memcmp (notes + name_off, "GNU", 4) == 0)
        {
          const unsigned char *d = (const unsigned char *) notes + desc_off;
          if (len < 2 * n->n_descsz + 1)
            return -1;
          for (size_t i = 0; i < n->n_descsz; i++)
            sprintf (hex + 2 * i, "%02x", d[i]);
          return 0;
        }
      off = next;
    }
  return -1;
}

static int
find_build_id (struct dl_phdr_info *info, size_t size, void *data)
{
  struct build_id_search *s = data;
  (void) size;
  if (info->dlpi_name == NULL || !ends_with (info->dlpi_name, s->suffix))
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type == PT_NOTE
          && note_build_id ((const char *) (info->dlpi_addr + ph->p_vaddr),
                            ph->p_memsz, s->hex, s->len) == 0)
        {
          s->found = 1;
          return 1;
        }
    }
  return 0;
}

int
loaded_build_id (const char *suffix, char *hex, size_t len)
{
  struct build_id_search s = { suffix, hex, len, 0 };
  dl_iterate_phdr (find_build_id, &s);
  return s.found ? 0 : -1;
}

static int
find_interpreter (struct dl_phdr_info *info, size_t size, void *data)
{
  const char **name = data;
  (void) size;
  if (info->dlpi_addr == getauxval (AT_BASE))
    {
      *name = info->dlpi_name;
      return 1;
    }
  return 0;
}

const char *
loaded_interpreter (void)
{
  const char *name = NULL;
  dl_iterate_phdr (find_interpreter, &name);
  return name;
}
