# The script matrix's route "runpy.run_path(FILE)".
import runpy
import sys

runpy.run_path(sys.argv[1])
