"""Player tokens: short-lived signed (HS256) access JWTs naming the player and session.

An access token lives minutes (ACCESS_TOKEN_TTL); the session it belongs to
(backend.sessions) is what signing out revokes and what a refresh token renews.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import jwt

ALGORITHM = "HS256"
ISSUER = "showdown"
ACCESS = "access"


class AuthError(Exception):
    """A missing, malformed, forged, expired or revoked token; the message says which."""


@dataclass(frozen=True, slots=True)
class Principal:
    """The player a token speaks for, and the session it was issued in."""

    player_id: str
    name: str
    session_id: str


@dataclass(frozen=True, slots=True)
class IssuedToken:
    token: str
    expires_at: float


def issue_token(principal: Principal, secret: str, ttl: float) -> IssuedToken:
    now = time.time()
    claims = {
        "sub": principal.player_id,
        "name": principal.name,
        "sid": principal.session_id,
        "typ": ACCESS,
        "iss": ISSUER,
        "iat": int(now),
        "exp": int(now + ttl),
    }
    return IssuedToken(jwt.encode(claims, secret, algorithm=ALGORITHM), now + ttl)


def verify_token(token: str, secret: str) -> Principal:
    """The token's player, or AuthError saying why it is refused (revocation is not checked)."""
    try:
        claims = jwt.decode(
            token,
            secret,
            algorithms=[ALGORITHM],  # never accept "none" or another algorithm
            issuer=ISSUER,
            options={"require": ["sub", "exp", "iss", "sid"]},
        )
    except jwt.ExpiredSignatureError as error:
        raise AuthError("the token has expired: refresh it or sign in again") from error
    except jwt.InvalidTokenError as error:
        raise AuthError(f"invalid token: {error}") from error
    player_id, name, session_id = claims.get("sub"), claims.get("name"), claims.get("sid")
    if claims.get("typ") != ACCESS:
        raise AuthError("invalid token: not an access token")
    if not isinstance(player_id, str) or not isinstance(name, str):
        raise AuthError("invalid token: no player in it")
    if not isinstance(session_id, str):
        raise AuthError("invalid token: no session in it")
    return Principal(player_id, name, session_id)
