/* Part 3 of the benchmark: dlopen + dlclose of one library in a loop (the
   program dlopen-loop), under each ld.so configuration.  */
#include "bench.h"

#include <stdlib.h>

#include "spawn.h"
#include "timing.h"

#define ROUNDS 7

int
bench_dlopen (FILE *out)
{
  static const char *const args[] = {
    "/usr/lib/checkexec/bench/dlopen-loop",
    "/usr/lib/checkexec/bench/lib/libbench-000.so", "1500", NULL,
  };
  double samples[CONFIGS][ROUNDS], us[CONFIGS];
  char output[256];
  for (int r = 0; r < ROUNDS; r++)
    for (int c = 0; c < CONFIGS; c++)
      {
        if (spawn_timed (c, args, output, sizeof output) < 0)
          {
            printf ("error: dlopen-loop failed under %s\n", config_names[c]);
            return -1;
          }
        samples[c][r] = strtod (output, NULL) / 1e3;
      }
  fprintf (out, "\n3. dlopen + dlclose of one library (median of %d runs"
           " of 1500)\n", ROUNDS);
  for (int c = 0; c < CONFIGS; c++)
    {
      us[c] = median (samples[c], ROUNDS);
      fprintf (out, "   %-20s %10.1f us  (%5.2fx stock)\n", config_names[c],
               us[c], us[c] / us[STOCK]);
    }
  return 0;
}
