"""The studio's typed request errors, each carrying the HTTP status it is answered with."""

from __future__ import annotations

from droidpilot.errors import InputError


class StudioError(InputError):
    """A request the studio refuses; ``status`` is the HTTP status (400: bad input)."""

    status = 400


class NotFound(StudioError):
    """An unknown phone, trace folder or frame."""

    status = 404


class Conflict(StudioError):
    """The request clashes with the phone's state (someone else controls it, no recording to stop, ...)."""

    status = 409
