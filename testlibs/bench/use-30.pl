#!/usr/bin/perl
# make bench: a program's start-up that uses 30 modules of perl's standard
# library (pure perl and XS modules, and what they pull in), then exits.
use strict;
use warnings;
use Carp ();
use Exporter ();
use constant CHECKED => 1;
use parent ();
use overload ();
use Scalar::Util ();
use List::Util ();
use Data::Dumper ();
use File::Spec ();
use File::Basename ();
use File::Path ();
use File::Temp ();
use File::Copy ();
use File::Find ();
use Cwd ();
use Getopt::Long ();
use POSIX ();
use Fcntl ();
use IO::File ();
use Time::Local ();
use Time::HiRes ();
use Text::Wrap ();
use Text::ParseWords ();
use Storable ();
use Digest::MD5 ();
use MIME::Base64 ();
use Socket ();
use JSON::PP ();
