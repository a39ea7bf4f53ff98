/* libcheckexec-system.so: a well-behaved library installed in the system
   library directory, the target of the LD_LIBRARY_PATH hijack tests.  */
const char *
checkexec_system_library (void)
{
  return "the system library";
}
