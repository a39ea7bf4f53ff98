/* One of the benchmark's libraries (built 100 times, BENCH_ID 0-99).  */
int
BENCH_FUNCTION (void)
{
  return BENCH_ID;
}
