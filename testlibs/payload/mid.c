/* libcheckexec-mid.so: a legitimate library that itself needs the
   payload library, for the transitive DT_NEEDED tests.  */
int checkexec_mark (void);

int
checkexec_mid (void)
{
  return checkexec_mark ();
}
