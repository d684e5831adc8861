"""Robustness and security tooling: the fuzz target table and driver, the sanitizer build, the
valgrind constant-time harness.  Used by tests/ and by the nox sessions fuzz, sanitize and
constant_time; never imported by generated code.

Layer: tools (security/), above the generator: imports the generator, the generated packages and
security's own modules; the generator never imports it.
"""
