# The script matrix's route ".pth file of a site directory": site reads the
# .pth files of the directory given, and runs their import lines.
import site
import sys

site.addsitedir(sys.argv[1])
