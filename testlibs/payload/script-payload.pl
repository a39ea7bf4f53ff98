#!/usr/bin/perl
# The script matrix's payload for perl: its mark shows that its code ran
# (as a script, a module, a file of do, code in a switch, ...).
open(my $mark, '>', $ENV{CHECKEXEC_MARK}) or die "$ENV{CHECKEXEC_MARK}: $!";
print $mark "script payload ran\n";
close($mark);
1;
