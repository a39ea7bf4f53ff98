/* The parts of make bench's in-guest benchmark.  Each makes ROUNDS rounds
   (0: its own number; see part_rounds), writes its results to OUT as
   records, one line each of tab-separated NAME=VALUE fields, the first
   "part=NAME" (the host renders the tables), and returns 0, or -1 after
   printing why.  */
#ifndef CHECKEXEC_BENCH_H
#define CHECKEXEC_BENCH_H

#include <stdio.h>

int bench_per_call (FILE *out, int rounds);
int bench_startup (FILE *out, int rounds);
int bench_dlopen (FILE *out, int rounds);
int bench_concurrent (FILE *out, int rounds);

#endif
