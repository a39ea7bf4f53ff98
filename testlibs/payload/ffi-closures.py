#!/usr/bin/python3
"""Build libffi closures through one user of libffi, then show the mappings
a closure must not need.

Usage: ffi-closures.py ctypes | p11-kit

Prints "closure USER: ok ..." when closures were built and called, then
"mapping: LINE" for each mapping of the process that is writable and
executable, of a memfd or of a deleted file, and exits 1 if there was
one (test-ffi-closures and make demo want none)."""
import ctypes
import os
import sys


def ctypes_callback():
    """A ctypes callback, called from C (qsort) and from Python."""
    compare_type = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_int),
                                    ctypes.POINTER(ctypes.c_int))
    compare = compare_type(lambda a, b: a[0] - b[0])
    numbers = (ctypes.c_int * 5)(5, 3, 4, 1, 2)
    ctypes.CDLL(None).qsort(numbers, 5, ctypes.sizeof(ctypes.c_int), compare)
    double = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)(lambda x: 2 * x)
    if list(numbers) != [1, 2, 3, 4, 5] or double(21) != 42:
        sys.exit(f"closure ctypes: wrong results {list(numbers)} {double(21)}")
    code = ctypes.cast(double, ctypes.c_void_p).value
    return f"qsort sorted through a callback; callback(21) = 42 at {mapping_of(code)}"


PKCS11_MODULE = os.environ.get("CHECKEXEC_PKCS11_MODULE",
                               "/usr/lib/checkexec/payload/libcheckexec-pkcs11.so").encode()


# p11-kit wraps the first 64 managed modules with closures of its own
# (P11_VIRTUAL_MAX_FIXED), the next ones with libffi's.
P11_KIT_FIXED_CLOSURES = 64


def p11_kit():
    """p11-kit wraps the functions of a managed module in closures: load
    the probe module (payload/pkcs11-module.c) until p11-kit takes libffi's
    closures, then initialize and finalize the last one through them."""
    lib = ctypes.CDLL("libp11-kit.so.0")
    lib.p11_kit_module_load.restype = ctypes.c_void_p
    lib.p11_kit_module_load.argtypes = [ctypes.c_char_p, ctypes.c_int]
    lib.p11_kit_message.restype = ctypes.c_char_p
    for name in ("initialize", "finalize", "release"):
        getattr(lib, f"p11_kit_module_{name}").argtypes = [ctypes.c_void_p]
    modules = []
    for _ in range(P11_KIT_FIXED_CLOSURES + 1):
        module = lib.p11_kit_module_load(PKCS11_MODULE, 0)
        if not module:
            sys.exit(f"closure p11-kit: loading {PKCS11_MODULE.decode()} failed: "
                     f"{lib.p11_kit_message()}")
        modules.append(module)
    last = modules[-1]
    # The function list: the version (padded to 8 bytes), then C_Initialize.
    initialize = mapping_of(ctypes.cast(last, ctypes.POINTER(ctypes.c_void_p))[1])
    if "libp11-kit" in initialize:
        sys.exit(f"closure p11-kit: module {len(modules)} is wrapped by p11-kit's "
                 f"own closures ({initialize}), not by libffi's")
    if lib.p11_kit_module_initialize(last) != 0 \
            or lib.p11_kit_module_finalize(last) != 0:
        sys.exit(f"closure p11-kit: C_Initialize or C_Finalize failed: "
                 f"{lib.p11_kit_message()}")
    for module in modules:
        lib.p11_kit_module_release(module)
    return (f"{len(modules)} modules wrapped; C_Initialize and C_Finalize "
            f"through the last one's closure at {initialize}")


def mapping_of(address):
    """The name of the mapping that holds address."""
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split()
            start, end = (int(x, 16) for x in fields[0].split("-"))
            if start <= address < end:
                return f"{fields[1]} {' '.join(fields[5:]) or '[anonymous]'}"
    return "no mapping"


def suspicious_mappings():
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split()
            perms = fields[1]
            name = " ".join(fields[5:])
            if ("w" in perms and "x" in perms) or "memfd:" in name \
                    or name.endswith("(deleted)"):
                yield line.rstrip()


USERS = {"ctypes": ctypes_callback, "p11-kit": p11_kit}

if len(sys.argv) != 2 or sys.argv[1] not in USERS:
    sys.exit(f"usage: {sys.argv[0]} {' | '.join(USERS)}")
print(f"closure {sys.argv[1]}: ok, {USERS[sys.argv[1]]()}")
mappings = list(suspicious_mappings())
for mapping in mappings:
    print(f"mapping: {mapping}")
sys.exit(1 if mappings else 0)
