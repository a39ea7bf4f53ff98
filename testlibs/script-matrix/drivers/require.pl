#!/usr/bin/perl
# The script matrix's route "require NAME": the payload is a module in a
# directory of PERL5LIB (checkexec_payload.pm, or its .pmc).
require checkexec_payload;
