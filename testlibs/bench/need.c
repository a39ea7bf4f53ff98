/* A program that needs the first N benchmark libraries (DT_NEEDED, linked
   in); it calls only the first, the others just have to be loaded.  */
int bench_000 (void);

int
main (void)
{
  return bench_000 () == 1000 ? 0 : 1;
}
