/* The DT_NEEDED entries of an ELF file, read from its program headers:
   PT_DYNAMIC gives the dynamic entries, and DT_STRTAB (an address) is
   turned into a file offset through the PT_LOAD segment holding it.  */
#include "elf-needed.h"

#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The file offset of address ADDR in the PT_LOAD segments, or 0.  */
static Elf64_Off
address_offset (const Elf64_Phdr *phdr, int count, Elf64_Addr addr)
{
  for (int i = 0; i < count; i++)
    if (phdr[i].p_type == PT_LOAD && addr >= phdr[i].p_vaddr
        && addr < phdr[i].p_vaddr + phdr[i].p_filesz)
      return addr - phdr[i].p_vaddr + phdr[i].p_offset;
  return 0;
}

/* Whether the dynamic section DYN (COUNT entries) of IMAGE (SIZE bytes)
   needs NAME.  */
static bool
dynamic_needs (const char *image, size_t size, const Elf64_Phdr *phdr,
               int phnum, const Elf64_Dyn *dyn, size_t count,
               const char *name)
{
  Elf64_Off strtab = 0;
  for (size_t i = 0; i < count && dyn[i].d_tag != DT_NULL; i++)
    if (dyn[i].d_tag == DT_STRTAB)
      strtab = address_offset (phdr, phnum, dyn[i].d_un.d_ptr);
  if (strtab == 0)
    return false;
  size_t len = strlen (name);
  for (size_t i = 0; i < count && dyn[i].d_tag != DT_NULL; i++)
    {
      if (dyn[i].d_tag != DT_NEEDED)
        continue;
      Elf64_Off at = strtab + dyn[i].d_un.d_val;
      if (at < size && size - at > len && memcmp (image + at, name, len + 1) == 0)
        return true;
    }
  return false;
}

/* Whether the ELF file IMAGE of SIZE bytes needs NAME.  */
static bool
image_needs (const char *image, size_t size, const char *name)
{
  const Elf64_Ehdr *ehdr = (const Elf64_Ehdr *) image;
  if (size < sizeof *ehdr || memcmp (ehdr->e_ident, ELFMAG, SELFMAG) != 0
      || ehdr->e_ident[EI_CLASS] != ELFCLASS64
      || ehdr->e_phentsize != sizeof (Elf64_Phdr)
      || ehdr->e_phoff > size
      || (size - ehdr->e_phoff) / sizeof (Elf64_Phdr) < ehdr->e_phnum)
    return false;
  const Elf64_Phdr *phdr = (const Elf64_Phdr *) (image + ehdr->e_phoff);
  for (int i = 0; i < ehdr->e_phnum; i++)
    if (phdr[i].p_type == PT_DYNAMIC && phdr[i].p_offset < size
        && phdr[i].p_filesz <= size - phdr[i].p_offset)
      return dynamic_needs (image, size, phdr, ehdr->e_phnum,
                            (const Elf64_Dyn *) (image + phdr[i].p_offset),
                            phdr[i].p_filesz / sizeof (Elf64_Dyn), name);
  return false;
}

bool
elf_needs (const char *path, const char *name)
{
  struct stat st;
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0)
    return false;
  bool needs = false;
  if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode)
      && st.st_size >= (off_t) sizeof (Elf64_Ehdr))
    {
      void *image = mmap (NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
      if (image != MAP_FAILED)
        {
          needs = image_needs (image, st.st_size, name);
          munmap (image, st.st_size);
        }
    }
  close (fd);
  return needs;
}
