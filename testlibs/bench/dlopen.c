/* Part 3 of the benchmark: dlopen + dlclose of one library in a loop (the
   program dlopen-loop), under each ld.so configuration.  */
#include "bench.h"

#include <stdlib.h>

#include "spawn.h"
#include "timing.h"

#define MAX_ROUNDS 21
#define LOOPS "500"

int
bench_dlopen (FILE *out, const struct bench_options *options)
{
  static const char *const args[] = {
    "/usr/lib/checkexec/bench/dlopen-loop",
    "/usr/lib/checkexec/bench/lib/libbench-000.so", LOOPS, NULL,
  };
  double samples[CONFIGS][MAX_ROUNDS], ratio[CONFIGS];
  char output[256];
  int rounds = part_rounds (options->rounds, MAX_ROUNDS);
  for (int r = WARM_UP; r < rounds; r++)
    for (int i = 0; i < CONFIGS; i++)
      {
        enum config c = (r + CONFIGS + i) % CONFIGS;
        if (spawn_timed (c, args, output, sizeof output) < 0)
          {
            printf ("error: dlopen-loop failed under %s\n", config_names[c]);
            return -1;
          }
        if (r >= 0)
          samples[c][r] = strtod (output, NULL) / 1e3;
      }
  for (int c = 0; c < CONFIGS; c++)
    ratio[c] = median_ratio (samples[c], samples[STOCK], rounds);
  /* The patch alone, as in the start-up part.  */
  double patch_alone
      = median_ratio (samples[CLEAR], samples[UNPATCHED], rounds);
  for (int c = 0; c < CONFIGS; c++)
    fprintf (out,
             "part=dlopen\trounds=%d\tloops=" LOOPS "\tconfig=%s\tus=%.3f"
             "\tratio=%.3f\tspread=%.4f\n",
             rounds, config_names[c], median (samples[c], rounds), ratio[c],
             spread (samples[c], rounds));
  fprintf (out, "part=dlopen-pairs\tclear_over_ours=%.3f\n", patch_alone);
  return 0;
}
