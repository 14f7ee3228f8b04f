"""Who is on the other end: client address, scheme and host, behind trusted proxies only.

X-Forwarded-For/-Proto/-Host are believed only when the direct peer is one of
TRUSTED_PROXIES (addresses or networks; `*` for any, when nothing but the proxy
can reach the server). From anyone else they are ignored: any client can send them.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from starlette.requests import HTTPConnection

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True, slots=True)
class ClientInfo:
    ip: str  # the client's address ("unknown" when the server cannot tell)
    scheme: str  # http or https, as the client sees the server
    host: str  # Host as the client sent it (host[:port]), lower case


@lru_cache(maxsize=64)
def _networks(trusted: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(t, strict=False) for t in trusted if t != "*")


def is_trusted(address: str | None, trusted: Sequence[str]) -> bool:
    if not address or not trusted:
        return False
    if "*" in trusted:
        return True
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in _networks(tuple(trusted)))


def _last(value: str | None) -> str | None:
    """The value the nearest proxy added (the last of a comma-separated list)."""
    if not value:
        return None
    item = value.split(",")[-1].strip()
    return item or None


def client_info(connection: HTTPConnection, trusted: Sequence[str]) -> ClientInfo:
    peer = connection.client.host if connection.client else None
    scheme = {"ws": "http", "wss": "https"}.get(connection.url.scheme, connection.url.scheme)
    host = connection.headers.get("host", "").lower()
    ip = peer or "unknown"
    if is_trusted(peer, trusted):
        proto = _last(connection.headers.get("x-forwarded-proto"))
        if proto in ("http", "https"):
            scheme = proto
        host = (_last(connection.headers.get("x-forwarded-host")) or host).lower()
        hops = [h.strip() for h in connection.headers.get("x-forwarded-for", "").split(",")]
        # From the nearest hop back: the first address that is not one of our proxies.
        for hop in reversed([h for h in hops if h]):
            ip = hop
            if not is_trusted(hop, trusted):
                break
    return ClientInfo(ip, scheme, host)
