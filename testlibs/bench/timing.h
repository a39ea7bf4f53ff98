/* Timing helpers of the benchmark.  */
#ifndef CHECKEXEC_TIMING_H
#define CHECKEXEC_TIMING_H

/* The first round of every part, numbered WARM_UP, is measured and
   thrown away: the first call of a kind pays for what it leaves behind for
   the next (slab caches grown, dentries and pages cached, code translated
   by TCG): twice the instructions of the next round for a check.  */
#define WARM_UP -1

/* Monotonic time in nanoseconds.  */
double now_ns (void);

/* The median of the N values (which it sorts).  */
double median (double *values, int n);

/* The median of VALUES[i] / BASE[i] over the N rounds i: each value compared
   with the base measured next to it, in the same round.  The guest's speed
   drifts by a third over a run under TCG (the host is shared); a ratio
   within a round does not.  */
double median_ratio (const double *values, const double *base, int n);

/* (largest - smallest) / median of the N values: how far the rounds of one
   measure lie apart, as a fraction (0.01 is 1 %).  */
double spread (const double *values, int n);

/* The rounds a part makes: REQUESTED (checkexec-bench -r) if it is not 0,
   at most MAX; else MAX, the part's own.  */
int part_rounds (int requested, int max);

#endif
