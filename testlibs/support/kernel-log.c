/* Looking for a record in the kernel log.  */
#include "kernel-log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"

/* The kernel's log buffer of the guest is far smaller.  */
#define LOG_SIZE (4 << 20)

static bool
line_has_all (const char *line, const char *const needles[])
{
  for (; *needles != NULL; needles++)
    if (strstr (line, *needles) == NULL)
      return false;
  return true;
}

bool
kernel_log_has (const char *const needles[])
{
  const char *dmesg[] = { "/usr/bin/dmesg", NULL };
  char *log = malloc (LOG_SIZE);
  bool found = false;
  if (log == NULL)
    return false;
  if (run_command ((char *const *) dmesg, log, LOG_SIZE) != 0)
    printf ("# dmesg failed: %s\n", log);
  else
    for (char *line = strtok (log, "\n"); line != NULL && !found;
         line = strtok (NULL, "\n"))
      if (line_has_all (line, needles))
        {
          printf ("# %s\n", line);
          found = true;
        }
  free (log);
  return found;
}
