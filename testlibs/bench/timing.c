/* Timing helpers of the benchmark.  */
#include "timing.h"

#include <stdlib.h>
#include <time.h>

double
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int
compare (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

double
median (double *values, int n)
{
  qsort (values, n, sizeof *values, compare);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double
median_ratio (const double *values, const double *base, int n)
{
  double ratios[n];
  for (int i = 0; i < n; i++)
    ratios[i] = values[i] / base[i];
  return median (ratios, n);
}

double
spread (const double *values, int n)
{
  double sorted[n];
  for (int i = 0; i < n; i++)
    sorted[i] = values[i];
  double mid = median (sorted, n);
  return mid > 0 ? (sorted[n - 1] - sorted[0]) / mid : 0;
}

int
part_rounds (int requested, int max)
{
  return requested > 0 && requested < max ? requested : max;
}
