/* A static program linked against Debian's stock libc.a: its dlopen is
   the stock loader, compiled into the program, which never asks
   AT_EXECVE_CHECK.  It loads the library named by its argument and calls
   checkexec_bare; prints "returned N" (and appends "loaded" to the file
   named by $CHECKEXEC_MARK, as the other payloads do) or "dlopen: ERROR".
   Usage: static-dlopen LIBRARY  */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: static-dlopen LIBRARY\n");
      return 2;
    }
  void *handle = dlopen (argv[1], RTLD_NOW);
  if (handle == NULL)
    {
      printf ("dlopen: %s\n", dlerror ());
      return 1;
    }
  int (*bare) (void) = (int (*) (void)) dlsym (handle, "checkexec_bare");
  if (bare == NULL)
    {
      printf ("dlsym: %s\n", dlerror ());
      return 1;
    }
  printf ("returned %d\n", bare ());
  const char *mark = getenv ("CHECKEXEC_MARK");
  FILE *file = mark != NULL ? fopen (mark, "a") : NULL;
  if (file != NULL)
    {
      fputs ("loaded\n", file);
      fclose (file);
    }
  return 0;
}
