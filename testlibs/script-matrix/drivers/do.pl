#!/usr/bin/perl
# The script matrix's route "do FILE", as Debian's modules call it: a file
# that cannot be done is a failure.
my $file = shift;
defined(do $file) or exit 1;
