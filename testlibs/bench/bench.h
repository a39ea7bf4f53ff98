/* The parts of make bench's in-guest benchmark.  Each writes its results
   to OUT as records, one line each of tab-separated NAME=VALUE fields, the
   first "part=NAME" (the host renders the tables), and returns 0, or -1
   after printing why.  */
#ifndef CHECKEXEC_BENCH_H
#define CHECKEXEC_BENCH_H

#include <stdio.h>

int bench_per_call (FILE *out);
int bench_startup (FILE *out);
int bench_dlopen (FILE *out);
int bench_concurrent (FILE *out);

#endif
