"""Links SimPhone opens: an http(s) URL (a VIEW intent, `open_url`) opens the browser at that address.

SimPhone has no network: the browser shows the page by its address, host as the title, and says the page
itself is not loaded, so nothing pretends to be fetched content.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

BROWSER = "browser"
PAGE_SCREEN = "page"
_SPACE = re.compile(r"[\s\x00-\x1f\x7f]")
MAX_URL = 2048


class LinkError(ValueError):
    """The URL is not one SimPhone's browser opens (not http/https, or malformed)."""


def page_for(url: str) -> dict[str, str]:
    """The browser's ``page`` screen parameters for ``url``; LinkError for anything but a web address."""
    if len(url) > MAX_URL:
        raise LinkError(f"the URL is {len(url)} characters long; the browser opens up to {MAX_URL}")
    if not url.lower().startswith(("http://", "https://")):
        raise LinkError(f"{url[:200]!r} is not an http:// or https:// address")
    if _SPACE.search(url):
        raise LinkError(f"{url[:200]!r} contains white space or control characters (escape them as %20)")
    try:
        host = urlsplit(url).hostname or ""
    except ValueError as exc:
        raise LinkError(f"{url[:200]!r} is not a well-formed address: {exc}") from None
    if not host:
        raise LinkError(f"{url[:200]!r} names no host")
    return {"url": url, "title": host,
            "body": f"{url}\nSimPhone is offline: this page is shown by its address and is not loaded."}


def open_in_browser(phone: Any, url: str) -> None:
    """Open an http(s) ``url`` on a SimDevice as a VIEW intent does: the browser's page screen, the URL
    kept in its visited list; DeviceError for a URL no app can open."""
    from droidpilot.device.base import DeviceError

    try:
        page = page_for(url)
    except LinkError as exc:
        raise DeviceError(str(exc)) from None
    phone.open_app(BROWSER)
    visited = phone._world.states.get(BROWSER, {}).get("visited")
    if isinstance(visited, list):
        visited.append(url)
    phone.push(PAGE_SCREEN, {"page": page})
    phone._changed()
