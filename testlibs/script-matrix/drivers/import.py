# The script matrix's route "import NAME": the payload is a module in a
# directory of PYTHONPATH.
import checkexec_payload  # noqa: F401
