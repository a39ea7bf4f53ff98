# The perl module of the checkexec-script-probe package, in perl's
# vendorarch directory: Debian's XS modules go there, and no package of
# the image makes it.
package CheckexecScriptProbe;
use strict;
use warnings;
our $GREETING = 'checkexec-script-probe loaded';
1;
