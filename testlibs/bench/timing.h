/* Timing helpers of the benchmark.  */
#ifndef CHECKEXEC_TIMING_H
#define CHECKEXEC_TIMING_H

/* Monotonic time in nanoseconds.  */
double now_ns (void);

/* The median of the N values (which it sorts).  */
double median (double *values, int n);

#endif
