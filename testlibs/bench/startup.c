/* Part 2 of the benchmark: start-up of programs with 1, 10 and 100
   DT_NEEDED libraries and of python3, under each ld.so configuration,
   interleaved; the median, and its ratio to Debian's stock ld.so.  */
#include "bench.h"

#include "spawn.h"
#include "timing.h"

#define BENCH_DIR "/usr/lib/checkexec/bench"
#define MAX_ROUNDS 41

struct program
{
  const char *name;
  const char *args[4];
  int rounds;
};

static const struct program programs[] = {
  { "1 library", { BENCH_DIR "/need-1" }, 25 },
  { "10 libraries", { BENCH_DIR "/need-10" }, 25 },
  { "100 libraries", { BENCH_DIR "/need-100" }, MAX_ROUNDS },
  { "python3 -c pass", { "/usr/bin/python3", "-c", "pass" }, 9 },
};

int
bench_startup (FILE *out)
{
  fprintf (out, "\n2. Start-up (median of the runs, ms; ratio to stock)\n");
  fprintf (out, "   %-18s", "program");
  for (int c = 0; c < CONFIGS; c++)
    fprintf (out, " %20s", config_names[c]);
  fprintf (out, "\n");
  for (size_t p = 0; p < sizeof programs / sizeof programs[0]; p++)
    {
      double samples[CONFIGS][MAX_ROUNDS], ms[CONFIGS];
      for (int r = 0; r < programs[p].rounds; r++)
        for (int c = 0; c < CONFIGS; c++)
          if ((samples[c][r] = spawn_timed (c, programs[p].args, NULL, 0)) < 0)
            {
              printf ("error: %s failed under %s\n", programs[p].name,
                      config_names[c]);
              return -1;
            }
      fprintf (out, "   %-18s", programs[p].name);
      for (int c = 0; c < CONFIGS; c++)
        {
          ms[c] = median (samples[c], programs[p].rounds) / 1e6;
          fprintf (out, " %11.1f (%5.2fx)", ms[c], ms[c] / ms[STOCK]);
        }
      fprintf (out, "\n");
    }
  return 0;
}
