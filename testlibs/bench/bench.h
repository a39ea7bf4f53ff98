/* The parts of make bench's in-guest benchmark.  Each writes its results
   to OUT as records, one line each of tab-separated NAME=VALUE fields, the
   first "part=NAME" (the host renders the tables), and returns 0, or -1
   after printing why.  */
#ifndef CHECKEXEC_BENCH_H
#define CHECKEXEC_BENCH_H

#include <stdio.h>

struct bench_options
{
  /* The rounds of each measure: 0 for each part's own (see part_rounds).  */
  int rounds;
  /* The start-ups of one sample of the short start-ups (1 and 10
     libraries): its mean.  Under ACCEL=icount a start-up of a million
     instructions sees one timer tick more or less (about 1.5 %); ten in a
     row see a tenth of that.  */
  int batch;
  /* The directory the host shares with what the parts compare with.  */
  const char *share;
};

int bench_per_call (FILE *out, const struct bench_options *options);
int bench_startup (FILE *out, const struct bench_options *options);
int bench_dlopen (FILE *out, const struct bench_options *options);
int bench_concurrent (FILE *out, const struct bench_options *options);
int bench_interpreters (FILE *out, const struct bench_options *options);

#endif
