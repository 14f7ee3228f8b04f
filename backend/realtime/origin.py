"""The WebSocket Origin check: the server's own origin, or one of ALLOWED_ORIGINS.

Origins are compared whole: scheme, host and port (a page served over plain
http is not the https site, nor is another port of the same host).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from urllib.parse import urlsplit

from backend.proxies import ClientInfo

_DEFAULT_PORTS = {"http": 80, "https": 443}

Origin = tuple[str, str, int]


def parse_origin(value: str) -> Origin | None:
    """(scheme, host, port) of an origin or URL; None if it is not an http(s) origin."""
    try:
        parts = urlsplit(value.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or _DEFAULT_PORTS[scheme]


def origin_allowed(headers: Mapping[str, str], allowed: Sequence[str], own: ClientInfo) -> bool:
    """Browsers always send Origin on a WebSocket handshake; other clients may not.

    A page from another site cannot open a socket as our player (cross-site
    WebSocket hijacking), so a foreign Origin is refused; clients without one
    (bots, workers, tests) are not browsers and are let through to the token check.
    """
    raw = headers.get("origin")
    if raw is None:
        return True
    if "*" in allowed:
        return True
    origin = parse_origin(raw)
    if origin is None:  # "null" (sandboxed frames, file://) and garbage
        return False
    if any(parse_origin(a) == origin for a in allowed):
        return True
    return bool(own.host) and parse_origin(f"{own.scheme}://{own.host}") == origin
