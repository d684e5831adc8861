"""Robustness and security tooling: the fuzz target table and driver, the sanitizer build, the
valgrind constant-time harness.  Used by tests/ and by the nox sessions fuzz, sanitize and
constant_time; never imported by generated code."""
