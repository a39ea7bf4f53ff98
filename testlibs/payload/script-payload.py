# The script matrix's payload for python3: its mark shows that its code ran
# (as a script, a module, a start-up file, ...; script-payload.pyc is its
# bytecode).
import os

with open(os.environ["CHECKEXEC_MARK"], "w") as mark:
    mark.write("script payload ran\n")
