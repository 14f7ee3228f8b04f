"""Security headers on every HTTP response: CSP, no framing, no sniffing, no referrer leaks.

The web app loads only its own scripts, styles, images and sockets (the built
app has no inline script or style element); the API docs pages (/docs, /redoc)
load Swagger/ReDoc from their CDN and get a policy that allows it.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send


def app_csp(nodes: Sequence[str] = ()) -> str:
    """The app's policy; `nodes` (a cluster's NODE_URLs) may be connected to as well: a
    table's socket is sent to its owner node (close 4010, docs/cluster.md §3)."""
    connect = " ".join(["'self'", *socket_sources(nodes)])
    return (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        f"font-src 'self'; connect-src {connect}; object-src 'none'; base-uri 'self'; "
        "form-action 'self'; frame-ancestors 'none'"
    )


def socket_sources(urls: Sequence[str]) -> list[str]:
    """ws(s)://host:port of each http(s) address (a ws source does not allow http, but the
    page only opens sockets there); anything else is left out."""
    sources = []
    for url in urls:
        parts = urlsplit(url)
        scheme = {"http": "ws", "https": "wss"}.get(parts.scheme.lower())
        if scheme and parts.netloc and not parts.username and " " not in url and ";" not in url:
            sources.append(f"{scheme}://{parts.netloc}")
    return sources


APP_CSP = app_csp()
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
    "worker-src 'self' blob:; object-src 'none'; base-uri 'self'; frame-ancestors 'none'"
)
_DOCS = ("/docs", "/redoc")

_COMMON = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
)


class SecurityHeaders:
    """Pure ASGI middleware (no buffering; WebSockets pass straight through)."""

    def __init__(self, app: ASGIApp, nodes: Sequence[str] = ()) -> None:
        self.app = app
        self.app_csp = app_csp(nodes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        csp = DOCS_CSP if path.startswith(_DOCS) else self.app_csp

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                for name, value in (*_COMMON, (b"content-security-policy", csp.encode())):
                    if name not in present:
                        headers.append((name, value))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
