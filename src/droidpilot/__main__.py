"""`python -m droidpilot` runs the command line."""

from droidpilot.cli import console

console()
