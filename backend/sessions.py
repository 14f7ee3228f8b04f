"""Sign-in sessions in MongoDB: refresh tokens, and revocation that survives restarts.

A session is created at sign-in. Its refresh token (`<session id>.<secret>`, only
its SHA-256 kept) buys a new access token and a new refresh token; the old one
then stops working (rotation). A spent refresh token presented again means two
parties hold the session's tokens (one of them stole it): the whole session is
revoked, the newer token too (the standard rotation rule). Only the token spent
last, within `reuse_grace` seconds, is refused without that: two tabs of one
browser refreshing at once must not sign each other out.

Signing out revokes the session: its refresh token, and every access token
issued in it, are refused from then on, by every server process and after
restarts. Access tokens are checked against the session on every REST call and
socket connect; a revoked session is remembered in memory, so checking it
again costs nothing. A player's other sessions (a password change) or all of
them (signing out everywhere) are revoked the same way.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from pymongo import ReturnDocument
from pymongo.asynchronous.database import AsyncDatabase

from backend.auth import AuthError, Principal

Document = dict[str, Any]
REVOKED_CACHE = 100_000  # revoked session ids remembered in memory (then: asked again)


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class Refreshed:
    """A session's principal with its new refresh token."""

    principal: Principal
    refresh_token: str
    expires_at: datetime


class RefreshReused(AuthError):
    """A spent refresh token came back: its session is revoked now."""

    def __init__(self, session_id: str) -> None:
        super().__init__(
            "this refresh token was used already, so someone else may hold this session: "
            "it is signed out everywhere; sign in again"
        )
        self.session_id = session_id


class SessionStore:
    def __init__(self, db: AsyncDatabase[Document], ttl: float, reuse_grace: float = 0.0) -> None:
        self._col = db.sessions
        self._ttl = timedelta(seconds=ttl)
        self._grace = timedelta(seconds=reuse_grace)
        self._revoked: set[str] = set()

    async def ensure_indexes(self) -> None:
        await self._col.create_index("player_id")
        # Sessions past their end are deleted by the database: by then every access
        # token issued in them has long expired, revoked or not.
        await self._col.create_index("expires_at", expireAfterSeconds=0)

    async def create(self, player_id: str, name: str) -> Refreshed:
        session_id = secrets.token_hex(12)
        secret = secrets.token_urlsafe(32)
        expires = _now() + self._ttl
        await self._col.insert_one(
            {
                "_id": session_id,
                "player_id": player_id,
                "name": name,
                "refresh_hash": _hash(secret),
                "created_at": _now(),
                "expires_at": expires,
                "revoked_at": None,
            }
        )
        return Refreshed(Principal(player_id, name, session_id), f"{session_id}.{secret}", expires)

    async def refresh(self, refresh_token: str) -> Refreshed:
        """A new refresh token for the session; AuthError if it is unknown, old or revoked,
        RefreshReused (the session revoked) if it was spent before."""
        session_id, _, secret = refresh_token.partition(".")
        if not session_id or not secret:
            raise AuthError("invalid refresh token")
        doc = await self._col.find_one({"_id": session_id})
        self._check(doc, session_id)
        assert doc is not None
        presented = _hash(secret)
        if not hmac.compare_digest(doc["refresh_hash"], presented):
            if self._just_spent(doc, presented):
                raise AuthError("this refresh token was used already: sign in again")
            await self.revoke(session_id)
            raise RefreshReused(session_id)
        new_secret = secrets.token_urlsafe(32)
        now = _now()
        # Conditional on the old hash: of two refreshes with one token, one wins (the
        # other is the concurrent refresh the grace is for).
        updated = await self._col.find_one_and_update(
            {"_id": session_id, "refresh_hash": doc["refresh_hash"], "revoked_at": None},
            {
                "$set": {
                    "refresh_hash": _hash(new_secret),
                    "expires_at": now + self._ttl,
                    "spent_hash": doc["refresh_hash"],
                    "spent_at": now,
                }
            },
            return_document=ReturnDocument.AFTER,
        )
        if updated is None:
            raise AuthError("this refresh token was used already: sign in again")
        expires = now + self._ttl
        principal = Principal(doc["player_id"], doc["name"], session_id)
        return Refreshed(principal, f"{session_id}.{new_secret}", expires)

    def _just_spent(self, doc: Document, presented: str) -> bool:
        """The token spent last, within the grace: a concurrent refresh, not a theft."""
        spent_hash, spent_at = doc.get("spent_hash"), doc.get("spent_at")
        if not isinstance(spent_hash, str) or not isinstance(spent_at, datetime):
            return False
        recent = _now() - spent_at <= self._grace
        return recent and hmac.compare_digest(spent_hash, presented)

    async def revoke(self, session_id: str) -> None:
        await self._col.update_one(
            {"_id": session_id, "revoked_at": None}, {"$set": {"revoked_at": _now()}}
        )
        self._remember(session_id)

    async def revoke_player(self, player_id: str, keep: str | None = None) -> list[str]:
        """Revoke every live session of the player but `keep`; the ids revoked."""
        marker = secrets.token_hex(8)  # which sessions this call revoked
        live: Document = {"player_id": player_id, "revoked_at": None}
        if keep is not None:
            live["_id"] = {"$ne": keep}
        await self._col.update_many(live, {"$set": {"revoked_at": _now(), "revoked_by": marker}})
        revoked = [
            str(doc["_id"])
            async for doc in self._col.find({"player_id": player_id, "revoked_by": marker}, ["_id"])
        ]
        for session_id in revoked:
            self._remember(session_id)
        return revoked

    async def check(self, principal: Principal) -> None:
        """AuthError unless the access token's session is live (not signed out, not expired)."""
        if principal.session_id in self._revoked:
            raise AuthError("signed out: sign in again")
        doc = await self._col.find_one({"_id": principal.session_id})
        self._check(doc, principal.session_id)

    def _check(self, doc: Document | None, session_id: str) -> None:
        if doc is None:
            raise AuthError("unknown session: sign in again")
        if doc.get("revoked_at") is not None:
            self._remember(session_id)
            raise AuthError("signed out: sign in again")
        expires = doc.get("expires_at")
        if isinstance(expires, datetime) and expires <= _now():
            raise AuthError("the session has expired: sign in again")

    def _remember(self, session_id: str) -> None:
        if len(self._revoked) >= REVOKED_CACHE:
            self._revoked.clear()  # only a cache: the database still says revoked
        self._revoked.add(session_id)
