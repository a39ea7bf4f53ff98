/* dlopen + dlclose LIBRARY COUNT times; print the mean ns per iteration.  */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

int
main (int argc, char **argv)
{
  if (argc != 3)
    return 2;
  int count = atoi (argv[2]);
  double start = now_ns ();
  for (int i = 0; i < count; i++)
    {
      void *handle = dlopen (argv[1], RTLD_NOW);
      if (handle == NULL)
        {
          fprintf (stderr, "%s\n", dlerror ());
          return 1;
        }
      dlclose (handle);
    }
  printf ("%.0f\n", (now_ns () - start) / count);
  return 0;
}
