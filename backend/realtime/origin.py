"""The WebSocket Origin check: the server's own origin, or one of ALLOWED_ORIGINS."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from urllib.parse import urlsplit


def origin_allowed(headers: Mapping[str, str], allowed: Sequence[str]) -> bool:
    """Browsers always send Origin on a WebSocket handshake; other clients may not.

    A page from another site cannot open a socket as our player (cross-site
    WebSocket hijacking), so a foreign Origin is refused; clients without one
    (bots, workers, tests) are not browsers and are let through to the token check.
    """
    origin = headers.get("origin")
    if origin is None:
        return True
    origin = origin.rstrip("/").lower()
    if "*" in allowed or origin in (a.lower() for a in allowed):
        return True
    host = (headers.get("x-forwarded-host") or headers.get("host") or "").lower()
    return bool(host) and urlsplit(origin).netloc == host
