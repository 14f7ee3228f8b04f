"""Player tokens: signed (HS256), expiring JWTs naming the player."""

from __future__ import annotations

import time
from dataclasses import dataclass

import jwt

ALGORITHM = "HS256"
ISSUER = "showdown"


class AuthError(Exception):
    """A missing, malformed, forged or expired token; the message says which."""


@dataclass(frozen=True, slots=True)
class Principal:
    """The player a token speaks for."""

    player_id: str
    name: str


@dataclass(frozen=True, slots=True)
class IssuedToken:
    token: str
    expires_at: float


def issue_token(principal: Principal, secret: str, ttl: float) -> IssuedToken:
    now = time.time()
    claims = {
        "sub": principal.player_id,
        "name": principal.name,
        "iss": ISSUER,
        "iat": int(now),
        "exp": int(now + ttl),
    }
    return IssuedToken(jwt.encode(claims, secret, algorithm=ALGORITHM), now + ttl)


def verify_token(token: str, secret: str) -> Principal:
    """The token's player, or AuthError saying why it is refused."""
    try:
        claims = jwt.decode(
            token,
            secret,
            algorithms=[ALGORITHM],  # never accept "none" or another algorithm
            issuer=ISSUER,
            options={"require": ["sub", "exp", "iss"]},
        )
    except jwt.ExpiredSignatureError as error:
        raise AuthError("the token has expired: sign in again") from error
    except jwt.InvalidTokenError as error:
        raise AuthError(f"invalid token: {error}") from error
    player_id, name = claims.get("sub"), claims.get("name")
    if not isinstance(player_id, str) or not isinstance(name, str):
        raise AuthError("invalid token: no player in it")
    return Principal(player_id, name)
