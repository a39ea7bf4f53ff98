/* The routes of the script matrix: every way a file (or code that is not
   in a file) reaches dash.  The drivers are 0755 scripts of the image
   (script-matrix/drivers/): they pass the check themselves.  */
#include "script-matrix.h"

#define DASH "/bin/dash"
#define DASH_AUDIT "DASH_EXEC_CHECK=audit"

const struct script_route script_routes[] = {
  { "dash FILE", INPUT_FILE, false, "payload.sh", false, DASH_AUDIT, NULL,
    { DASH, "@FILE@" }, { NULL } },
  { "dash < FILE", INPUT_STDIN_FILE, false, "payload.sh", false, DASH_AUDIT,
    "standard input", { DASH }, { NULL } },
  { "dash -s < FILE", INPUT_STDIN_FILE, false, "payload.sh", false,
    DASH_AUDIT, "standard input", { DASH, "-s" }, { NULL } },
  { "dash -i < FILE", INPUT_STDIN_FILE, true, "payload.sh", false,
    DASH_AUDIT, "standard input", { DASH, "-i" }, { NULL } },
  { "dash: . FILE", INPUT_FILE, false, "payload.sh", false, DASH_AUDIT, NULL,
    { DASH, SCRIPT_DRIVERS "/dot", "@FILE@" }, { NULL } },
  { "dash: command . FILE", INPUT_FILE, false, "payload.sh", false,
    DASH_AUDIT, NULL, { DASH, SCRIPT_DRIVERS "/command-dot", "@FILE@" }, { NULL } },
  { "dash: . NAME found in PATH", INPUT_FILE, false, "checkexec-payload.sh",
    true, DASH_AUDIT, NULL, { DASH, SCRIPT_DRIVERS "/dot-path" },
    { "PATH=@DIR@:/usr/bin:/bin" } },
  { "dash: function file of a PATH %func entry", INPUT_FILE, false,
    "checkexec_payload", true, DASH_AUDIT, NULL,
    { DASH, SCRIPT_DRIVERS "/path-func" },
    { "PATH=@DIR@%func:/usr/bin:/bin" } },
  { "dash -i: ENV", INPUT_STARTUP, true, "payload.sh", false, DASH_AUDIT, NULL,
    { DASH, "-i" }, { "ENV=@FILE@" } },
  { "dash -l: ~/.profile", INPUT_STARTUP, false, ".profile", true,
    DASH_AUDIT, NULL, { DASH, "-l", SCRIPT_DRIVERS "/true" }, { "HOME=@DIR@" } },
  { "dash /dev/stdin on a pipe", INPUT_NAMED_PIPE, false, "payload.sh",
    false, DASH_AUDIT, "/dev/stdin", { DASH, "/dev/stdin" }, { NULL } },
  { "CODE | dash", INPUT_PIPE, false, "payload.sh", false, DASH_AUDIT,
    "standard input", { DASH }, { NULL } },
  { "CODE | dash -i", INPUT_PIPE, true, "payload.sh", false, DASH_AUDIT,
    "an interactive shell", { DASH, "-i" }, { NULL } },
  { "dash -c CODE", INPUT_STRING, false, "payload.sh", false, DASH_AUDIT,
    "-c", { DASH, "-c", "@CODE@" }, { NULL } },
};

const size_t script_route_count = sizeof script_routes / sizeof script_routes[0];
