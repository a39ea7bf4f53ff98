#!/usr/bin/perl
# What perl runs in the routes of the script matrix that are about the
# files it loads before its script (-M, PERL5OPT).
1;
