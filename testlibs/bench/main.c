/* make bench's in-guest benchmark: measures the five parts (one call of
   each kind; program start-up; dlopen + dlclose; two workers at once; the
   interpreters),
   prints their results as records (see bench.h) and writes them to FILE.
   SHARE is a directory with Debian's stock C libraries (stock/) and the
   project's build of glibc without the patch (unpatched/:
   ld-linux-x86-64.so.2 and libc.so.6) and the interpreters' builds
   (interpreters.tar, see interpreters.c).  Run as root.
   Usage: checkexec-bench [-r ROUNDS] [-k BATCH] [-p PARTS] FILE SHARE
     -r ROUNDS  at most ROUNDS rounds per measure (default: each part's)
     -k BATCH   each start-up sample the mean of BATCH start-ups (default 1)
     -p PARTS   the parts to run, comma-separated, of call, startup,
                dlopen, workers and interp (default: all)
   Under ACCEL=icount (scripts/boot.sh) the guest's clock counts
   instructions: every "ns" the records give is then an instruction.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bench.h"
#include "spawn.h"

struct part
{
  const char *name;
  int (*run) (FILE *out, const struct bench_options *options);
};

static const struct part parts[] = {
  { "call", bench_per_call },
  { "startup", bench_startup },
  { "dlopen", bench_dlopen },
  { "workers", bench_concurrent },
  { "interp", bench_interpreters },
};
#define PARTS (sizeof parts / sizeof parts[0])

static int
usage (void)
{
  fprintf (stderr, "usage: checkexec-bench [-r ROUNDS] [-k BATCH] [-p PARTS]"
                   " FILE SHARE"
                   "\n  PARTS: comma-separated, of call,startup,dlopen,"
                   "workers,interp\n");
  return 2;
}

/* Mark in WANTED the parts named in the comma-separated LIST; -1 if a name
   is not a part's.  */
static int
select_parts (char *list, int wanted[PARTS])
{
  for (char *name = strtok (list, ","); name != NULL;
       name = strtok (NULL, ","))
    {
      size_t i = 0;
      while (i < PARTS && strcmp (parts[i].name, name) != 0)
        i++;
      if (i == PARTS)
        {
          fprintf (stderr, "checkexec-bench: no part '%s'\n", name);
          return -1;
        }
      wanted[i] = 1;
    }
  return 0;
}

/* Write TEXT to the file NAME; 0 or -1.  */
static int
save (const char *name, const char *text)
{
  FILE *file = fopen (name, "w");
  if (file == NULL || fputs (text, file) < 0 || fclose (file) != 0)
    {
      perror (name);
      return -1;
    }
  return 0;
}

int
main (int argc, char **argv)
{
  struct bench_options options = { .rounds = 0, .batch = 1 };
  int wanted[PARTS] = { 0 }, chosen = 0, opt, rc = 0;
  char *text = NULL, *end;
  size_t len = 0;
  struct utsname u;
  while ((opt = getopt (argc, argv, "r:k:p:")) != -1)
    if (opt == 'r' && (options.rounds = strtol (optarg, &end, 10)) > 0
        && *end == 0)
      continue;
    else if (opt == 'k' && (options.batch = strtol (optarg, &end, 10)) > 0
             && *end == 0)
      continue;
    else if (opt == 'p' && select_parts (optarg, wanted) == 0)
      chosen = 1;
    else
      return usage ();
  if (argc - optind != 2 || uname (&u) != 0)
    return usage ();
  if (!chosen)
    for (size_t i = 0; i < PARTS; i++)
      wanted[i] = 1;
  options.share = argv[optind + 1];
  if (stage_libraries (options.share) != 0)
    return 1;
  FILE *out = open_memstream (&text, &len);
  if (out == NULL)
    return 1;
  fprintf (out, "part=kernel\trelease=%s\tversion=%s\n", u.release,
           u.version);
  for (size_t i = 0; i < PARTS; i++)
    if (wanted[i])
      rc |= parts[i].run (out, &options);
  fclose (out);
  fputs (text, stdout);
  rc |= save (argv[optind], text);
  free (text);
  return rc == 0 ? 0 : 1;
}
