/* Part 3 of the benchmark: dlopen + dlclose of one library in a loop (the
   program dlopen-loop), under each ld.so configuration.  */
#include "bench.h"

#include <stdlib.h>

#include "spawn.h"
#include "timing.h"

#define ROUNDS 21
#define LOOPS "500"

int
bench_dlopen (FILE *out)
{
  static const char *const args[] = {
    "/usr/lib/checkexec/bench/dlopen-loop",
    "/usr/lib/checkexec/bench/lib/libbench-000.so", LOOPS, NULL,
  };
  double samples[CONFIGS][ROUNDS], ratio[CONFIGS];
  char output[256];
  for (int r = 0; r < ROUNDS; r++)
    for (int i = 0; i < CONFIGS; i++)
      {
        enum config c = (r + i) % CONFIGS;
        if (spawn_timed (c, args, output, sizeof output) < 0)
          {
            printf ("error: dlopen-loop failed under %s\n", config_names[c]);
            return -1;
          }
        samples[c][r] = strtod (output, NULL) / 1e3;
      }
  for (int c = 0; c < CONFIGS; c++)
    ratio[c] = median_ratio (samples[c], samples[STOCK], ROUNDS);
  for (int c = 0; c < CONFIGS; c++)
    fprintf (out,
             "part=dlopen\trounds=%d\tloops=" LOOPS "\tconfig=%s\tus=%.1f"
             "\tratio=%.2f\n",
             ROUNDS, config_names[c], median (samples[c], ROUNDS), ratio[c]);
  return 0;
}
