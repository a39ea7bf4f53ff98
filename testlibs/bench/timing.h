/* Timing helpers of the benchmark.  */
#ifndef CHECKEXEC_TIMING_H
#define CHECKEXEC_TIMING_H

/* Monotonic time in nanoseconds.  */
double now_ns (void);

/* The median of the N values (which it sorts).  */
double median (double *values, int n);

/* The median of VALUES[i] / BASE[i] over the N rounds i: each value compared
   with the base measured next to it, in the same round.  The guest's speed
   drifts by a third over a run under TCG (the host is shared); a ratio
   within a round does not.  */
double median_ratio (const double *values, const double *base, int n);

#endif
