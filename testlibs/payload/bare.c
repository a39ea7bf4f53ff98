/* A library with no dependency at all (not even libc), so that a static
   program's own loader can map it without bringing in the system's
   libc.so.6.  */
int checkexec_bare (void);

int
checkexec_bare (void)
{
  return 42;
}
