#!/usr/bin/perl
# The load matrix's route "perl DynaLoader": load the library given.  A
# script, not -e: a perl that cannot read its securebits enforces
# SECBIT_EXEC_DENY_INTERACTIVE too.
use DynaLoader;
DynaLoader::dl_load_file($ARGV[0], 0) or die DynaLoader::dl_error(), "\n";
