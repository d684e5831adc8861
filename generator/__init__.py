"""pairforge: generate specialised pairing-friendly curve implementations from parameter files."""

__version__ = "0.1.0"
