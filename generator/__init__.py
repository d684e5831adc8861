"""pairforge: generate specialised pairing-friendly curve implementations from parameter files.

Layer: the package root; it imports nothing.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    # set from the git tag when the distribution is built (setuptools-scm)
    __version__ = version("pairforge")
except PackageNotFoundError:  # run from a checkout that was never installed
    __version__ = "0.0.0+unknown"
