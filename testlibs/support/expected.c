#include "expected.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int
read_expected (const char *dir, const char *name, char *buf, size_t len)
{
  char path[4096];
  snprintf (path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen (path, "r");
  if (f == NULL)
    {
      printf ("# cannot open %s: %s\n", path, strerror (errno));
      return -1;
    }
  char *line = fgets (buf, (int) len, f);
  fclose (f);
  if (line == NULL)
    {
      printf ("# %s is empty\n", path);
      return -1;
    }
  buf[strcspn (buf, "\n")] = '\0';
  return 0;
}
