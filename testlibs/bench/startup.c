/* Part 2 of the benchmark: start-up of programs with 1, 10 and 100
   DT_NEEDED libraries and of python3, under each ld.so configuration,
   interleaved (each round in another order); the median time, and the
   median ratio to Debian's stock ld.so in the same round.  */
#include "bench.h"

#include <stdbool.h>

#include "spawn.h"
#include "timing.h"

#define BENCH_DIR "/usr/lib/checkexec/bench"
/* Enough rounds that the median ratio of identical work stays within a few
   percent of 1 under TCG.  */
#define MAX_ROUNDS 101

struct program
{
  const char *name;
  const char *args[4];
  int rounds;
  /* Whether its samples are batches (see struct bench_options): a start-up
     of a few million instructions.  */
  bool short_start;
};

static const struct program programs[] = {
  { "1 library", { BENCH_DIR "/need-1" }, MAX_ROUNDS, true },
  { "10 libraries", { BENCH_DIR "/need-10" }, MAX_ROUNDS, true },
  { "100 libraries", { BENCH_DIR "/need-100" }, 61, false },
  { "python3 -c pass", { "/usr/bin/python3", "-c", "pass" }, 21, false },
};

/* The mean time of BATCH start-ups of ARGS under configuration C; -1 if
   one failed.  */
static double
batch_timed (enum config c, const char *const *args, int batch)
{
  double sum = 0;
  for (int i = 0; i < batch; i++)
    {
      double one = spawn_timed (c, args, NULL, 0);
      if (one < 0)
        return -1;
      sum += one;
    }
  return sum / batch;
}

int
bench_startup (FILE *out, const struct bench_options *options)
{
  for (size_t p = 0; p < sizeof programs / sizeof programs[0]; p++)
    {
      double samples[CONFIGS][MAX_ROUNDS], ratio[CONFIGS];
      int rounds = part_rounds (options->rounds, programs[p].rounds);
      int batch = programs[p].short_start ? options->batch : 1;
      for (int r = WARM_UP; r < rounds; r++)
        for (int i = 0; i < CONFIGS; i++)
          {
            enum config c = (r + CONFIGS + i) % CONFIGS;
            double sample = batch_timed (c, programs[p].args, batch);
            if (r >= 0)
              samples[c][r] = sample;
            if (sample < 0)
              {
                printf ("error: %s failed under %s\n", programs[p].name,
                        config_names[c]);
                return -1;
              }
          }
      for (int c = 0; c < CONFIGS; c++)
        ratio[c] = median_ratio (samples[c], samples[STOCK], rounds);
      /* The patch alone: the patched ld.so with the bits clear against the
         same build without the patch.  The kernel's mapping check alone:
         enforcing with the bit against enforcing in ld.so only.  */
      double patch_alone
          = median_ratio (samples[CLEAR], samples[UNPATCHED], rounds);
      double mapping_check = median_ratio (samples[ENFORCING],
                                           samples[TUNABLE_ENFORCING], rounds);
      for (int c = 0; c < CONFIGS; c++)
        fprintf (out,
                 "part=startup\tprogram=%s\trounds=%d\tbatch=%d\tconfig=%s"
                 "\tms=%.3f\tratio=%.3f\tspread=%.4f\n",
                 programs[p].name, rounds, batch, config_names[c],
                 median (samples[c], rounds) / 1e6, ratio[c],
                 spread (samples[c], rounds));
      fprintf (out,
               "part=startup-pairs\tprogram=%s\tclear_over_ours=%.3f"
               "\tbit_over_ldso_only=%.3f\n",
               programs[p].name, patch_alone, mapping_check);
    }
  return 0;
}
