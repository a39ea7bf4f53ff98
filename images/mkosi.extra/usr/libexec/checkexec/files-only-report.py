#!/usr/bin/python3
"""checkexec-files-only.service's legitimate work: a script file, which
the service's securebits let run; it says so, with the securebits it
runs under (PR_GET_SECUREBITS)."""
import ctypes

PR_GET_SECUREBITS = 27
libc = ctypes.CDLL(None, use_errno=True)
print(f"python3 script file ran, securebits={libc.prctl(PR_GET_SECUREBITS, 0, 0, 0, 0):#x}")
