#!/usr/bin/python3
# The load matrix's route "python3 ctypes.CDLL": load the library given.
import ctypes
import sys

ctypes.CDLL(sys.argv[1])
