"""droidpilot: build, run and evaluate mobile GUI agents."""

__version__ = "0.1.0"
