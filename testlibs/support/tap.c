/* TAP output of the tests with several results.  */
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>

static int results;
static int failures;

void
tap_plan (int count)
{
  printf ("1..%d\n", count);
}

bool
tap_result (bool ok, const char *format, ...)
{
  va_list ap;
  printf ("%s %d - ", ok ? "ok" : "not ok", ++results);
  va_start (ap, format);
  vprintf (format, ap);
  va_end (ap);
  putchar ('\n');
  fflush (stdout);
  if (!ok)
    failures++;
  return ok;
}

void
tap_note (const char *format, ...)
{
  va_list ap;
  fputs ("# ", stdout);
  va_start (ap, format);
  vprintf (format, ap);
  va_end (ap);
  putchar ('\n');
}

int
tap_failures (void)
{
  return failures;
}
