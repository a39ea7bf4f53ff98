/* The routes of the script matrix: every way a file (or code that is not
   in a file) reaches dash and python3.  The drivers are 0755 files of the
   image (script-matrix/drivers/): they pass the check themselves.  */
#include "script-matrix.h"

#define DASH "/bin/dash"
#define DASH_AUDIT "DASH_EXEC_CHECK=audit"
#define SH_PAYLOAD SCRIPT_PAYLOADS "script-payload.sh"
#define SHELL "an interactive shell"

#define PYTHON "/usr/bin/python3"
#define PY_AUDIT "PYTHONEXECCHECK=audit"
#define PY_PAYLOAD SCRIPT_PAYLOADS "script-payload.py"
#define PYC_PAYLOAD SCRIPT_PAYLOADS "script-payload.pyc"
#define PTH_PAYLOAD SCRIPT_PAYLOADS "script-payload.pth"
#define REPL "an interactive interpreter"
#define PY_MODULE "checkexec_payload"

const struct script_route script_routes[] = {
  { "dash FILE", INPUT_FILE, SH_PAYLOAD, "payload.sh", false, DASH_AUDIT,
    NULL, NULL, BREADTH_FULL, { DASH, "@FILE@" }, { NULL } },
  { "dash < FILE", INPUT_STDIN_FILE, SH_PAYLOAD, "payload.sh", false,
    DASH_AUDIT, "standard input", NULL, BREADTH_FULL, { DASH }, { NULL } },
  { "dash -s < FILE", INPUT_STDIN_FILE, SH_PAYLOAD, "payload.sh", false,
    DASH_AUDIT, "standard input", NULL, BREADTH_FULL, { DASH, "-s" },
    { NULL } },
  { "dash -i < FILE", INPUT_STDIN_FILE, SH_PAYLOAD, "payload.sh", false,
    DASH_AUDIT, "standard input", SHELL, BREADTH_FULL, { DASH, "-i" },
    { NULL } },
  { "dash: . FILE", INPUT_FILE, SH_PAYLOAD, "payload.sh", false, DASH_AUDIT,
    NULL, NULL, BREADTH_FULL, { DASH, SCRIPT_DRIVERS "/dot", "@FILE@" },
    { NULL } },
  { "dash: command . FILE", INPUT_FILE, SH_PAYLOAD, "payload.sh", false,
    DASH_AUDIT, NULL, NULL, BREADTH_FULL,
    { DASH, SCRIPT_DRIVERS "/command-dot", "@FILE@" }, { NULL } },
  { "dash: . NAME found in PATH", INPUT_FILE, SH_PAYLOAD,
    "checkexec-payload.sh", true, DASH_AUDIT, NULL, NULL, BREADTH_FULL,
    { DASH, SCRIPT_DRIVERS "/dot-path" }, { "PATH=@DIR@:/usr/bin:/bin" } },
  { "dash: function file of a PATH %func entry", INPUT_FILE, SH_PAYLOAD,
    "checkexec_payload", true, DASH_AUDIT, NULL, NULL, BREADTH_FULL,
    { DASH, SCRIPT_DRIVERS "/path-func" },
    { "PATH=@DIR@%func:/usr/bin:/bin" } },
  { "dash -i: ENV", INPUT_STARTUP, SH_PAYLOAD, "payload.sh", false,
    DASH_AUDIT, NULL, SHELL, BREADTH_FULL, { DASH, "-i" }, { "ENV=@FILE@" } },
  { "dash -l: ~/.profile", INPUT_STARTUP, SH_PAYLOAD, ".profile", true,
    DASH_AUDIT, NULL, NULL, BREADTH_FULL,
    { DASH, "-l", SCRIPT_DRIVERS "/true" }, { "HOME=@DIR@" } },
  { "dash /dev/stdin on a pipe", INPUT_NAMED_PIPE, SH_PAYLOAD, "payload.sh",
    false, DASH_AUDIT, "/dev/stdin", NULL, BREADTH_FULL,
    { DASH, "/dev/stdin" }, { NULL } },
  { "CODE | dash", INPUT_PIPE, SH_PAYLOAD, "payload.sh", false, DASH_AUDIT,
    "standard input", NULL, BREADTH_FULL, { DASH }, { NULL } },
  { "CODE | dash -i", INPUT_PIPE, SH_PAYLOAD, "payload.sh", false,
    DASH_AUDIT, "standard input", SHELL, BREADTH_FULL, { DASH, "-i" },
    { NULL } },
  { "dash -c CODE", INPUT_STRING, SH_PAYLOAD, "payload.sh", false,
    DASH_AUDIT, "-c", "-c", BREADTH_FULL, { DASH, "-c", "@CODE@" },
    { NULL } },

  /* python3: what it runs as the script.  */
  { "python3 FILE", INPUT_FILE, PY_PAYLOAD, "payload.py", false, PY_AUDIT,
    NULL, NULL, BREADTH_FULL, { PYTHON, "@FILE@" }, { NULL } },
  { "python3 FILE.pyc", INPUT_FILE, PYC_PAYLOAD, "payload.pyc", false,
    PY_AUDIT, NULL, NULL, BREADTH_SHORT, { PYTHON, "@FILE@" }, { NULL } },
  { "python3 DIR (its __main__.py)", INPUT_FILE, PY_PAYLOAD, "__main__.py",
    true, PY_AUDIT, NULL, NULL, BREADTH_SHORT, { PYTHON, "@DIR@" },
    { NULL } },
  { "python3 -m NAME", INPUT_FILE, PY_PAYLOAD, PY_MODULE ".py", true,
    PY_AUDIT, NULL, "-m", BREADTH_SHORT, { PYTHON, "-m", PY_MODULE },
    { "PYTHONPATH=@DIR@" } },
  { "python3 < FILE", INPUT_STDIN_FILE, PY_PAYLOAD, "payload.py", false,
    PY_AUDIT, "standard input", NULL, BREADTH_FULL, { PYTHON }, { NULL } },
  { "python3 - < FILE", INPUT_STDIN_FILE, PY_PAYLOAD, "payload.py", false,
    PY_AUDIT, "standard input", NULL, BREADTH_SHORT, { PYTHON, "-" },
    { NULL } },
  { "python3 /dev/stdin on a pipe", INPUT_NAMED_PIPE, PY_PAYLOAD,
    "payload.py", false, PY_AUDIT, "/dev/stdin", NULL, BREADTH_SHORT,
    { PYTHON, "/dev/stdin" }, { NULL } },
  { "CODE | python3", INPUT_PIPE, PY_PAYLOAD, "payload.py", false, PY_AUDIT,
    "standard input", NULL, BREADTH_SHORT, { PYTHON }, { NULL } },
  { "python3 -c CODE", INPUT_STRING, PY_PAYLOAD, "payload.py", false,
    PY_AUDIT, "-c", "-c", BREADTH_SHORT, { PYTHON, "-c", "@CODE@" },
    { NULL } },
  { "python3 -i FILE", INPUT_FILE, PY_PAYLOAD, "payload.py", false, PY_AUDIT,
    NULL, REPL, BREADTH_SHORT, { PYTHON, "-i", "@FILE@" }, { NULL } },
  /* What it runs before the script, or for it.  */
  { "python3 -i: PYTHONSTARTUP", INPUT_STARTUP, PY_PAYLOAD, "payload.py",
    false, PY_AUDIT, NULL, REPL, BREADTH_SHORT, { PYTHON, "-i" },
    { "PYTHONSTARTUP=@FILE@" } },
  { "python3: sitecustomize", INPUT_STARTUP, PY_PAYLOAD, "sitecustomize.py",
    true, PY_AUDIT, NULL, NULL, BREADTH_SHORT,
    { PYTHON, SCRIPT_DRIVERS "/true.py" }, { "PYTHONPATH=@DIR@" } },
  { "python3: .pth file of a site directory", INPUT_STARTUP, PTH_PAYLOAD,
    "checkexec.pth", true, PY_AUDIT, NULL, NULL, BREADTH_SHORT,
    { PYTHON, SCRIPT_DRIVERS "/addsitedir.py", "@DIR@" }, { NULL } },
  { "python3: import NAME", INPUT_FILE, PY_PAYLOAD, PY_MODULE ".py", true,
    PY_AUDIT, NULL, NULL, BREADTH_FULL,
    { PYTHON, SCRIPT_DRIVERS "/import.py" }, { "PYTHONPATH=@DIR@" } },
  { "python3: runpy.run_path(FILE)", INPUT_FILE, PY_PAYLOAD, "payload.py",
    false, PY_AUDIT, NULL, NULL, BREADTH_SHORT,
    { PYTHON, SCRIPT_DRIVERS "/run-path.py", "@FILE@" }, { NULL } },
  { "python3 cProfile.py FILE", INPUT_FILE, PY_PAYLOAD, "payload.py", false,
    PY_AUDIT, NULL, NULL, BREADTH_SHORT,
    { PYTHON, "/usr/lib/python3.11/cProfile.py", "@FILE@" }, { NULL } },
};

const size_t script_route_count = sizeof script_routes / sizeof script_routes[0];
