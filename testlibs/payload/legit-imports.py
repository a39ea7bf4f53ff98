#!/usr/bin/python3
# make demo's legitimate python3 program: a script that imports modules
# with extension modules and libraries of their own.
import ctypes  # noqa: F401
import sqlite3  # noqa: F401
import ssl  # noqa: F401
