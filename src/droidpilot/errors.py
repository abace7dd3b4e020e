"""The exception every droidpilot error derives from, so callers and the CLI can catch one type."""

from __future__ import annotations


class DroidpilotError(Exception):
    """A failure with a message meant for people: what went wrong, where, and how to fix it."""


class InputError(DroidpilotError):
    """Bad input from the user (a rule, a trace, an option); the CLI exits with status 2."""
