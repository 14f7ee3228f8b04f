"""Signing in, refreshing and signing out; a password that keeps a guest's name.

A guest sign-in opens a session (backend.sessions) and answers an access token
of minutes with a refresh token; POST /auth/refresh trades the refresh token
for a new pair; POST /auth/logout revokes the session and closes its sockets,
POST /auth/logout-all every session of the player. POST /auth/password protects
the signed-in guest's name with a password (and ends the player's other
sessions), and POST /auth/login signs in again as that player
(docs/accounts.md).
"""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime

from fastapi import APIRouter, HTTPException, Response, status

from backend.api.deps import Client, Player, State
from backend.api.strict_json import StrictJsonRoute
from backend.auth import AuthError, issue_token
from backend.db.repositories import NameTaken
from backend.names import name_key
from backend.passwords import hash_password_async, verify_password_async, verify_unknown_async
from backend.schemas import (
    GuestRequest,
    LoginRequest,
    PlayerResponse,
    RefreshRequest,
    SetPasswordRequest,
    TokenResponse,
)
from backend.sessions import Refreshed, RefreshReused
from backend.state import AppState

log = logging.getLogger(__name__)
router = APIRouter(prefix="/api", tags=["auth"], route_class=StrictJsonRoute)


def _tokens(state: AppState, session: Refreshed) -> TokenResponse:
    principal = session.principal
    access = issue_token(principal, state.settings.secret_key, state.settings.access_token_ttl)
    return TokenResponse(
        token=access.token,
        player_id=principal.player_id,
        name=principal.name,
        expires_at=datetime.fromtimestamp(access.expires_at, UTC),
        refresh_token=session.refresh_token,
        refresh_expires_at=session.expires_at,
    )


@router.post(
    "/auth/guest",
    status_code=status.HTTP_201_CREATED,
    summary="Sign in as a guest",
    responses={
        409: {"description": "the name, or one that looks like it, is protected by a password"},
        429: {"description": "too many sign-ins from this address (Retry-After)"},
    },
)
async def guest(body: GuestRequest, state: State, client: Client) -> TokenResponse:
    state.signins.take(client.ip)
    holder = await state.repos.players.protected_lookalike(body.name)
    if holder is not None and name_key(holder["name"]) == name_key(body.name):
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            f"the name {body.name} is protected by a password: sign in with it, "
            "or choose another name",
        )
    if holder is not None:
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            f"the name {body.name} looks like {holder['name']}, which is protected by a "
            "password: choose a name that cannot be taken for another player's",
        )
    player_id = "g" + uuid.uuid4().hex[:16]
    await state.repos.players.create_guest(player_id, body.name)
    return _tokens(state, await state.sessions.create(player_id, body.name))


@router.post(
    "/auth/login",
    summary="Sign in with a name and its password",
    responses={
        401: {"description": "wrong password, or no password protects the name (one answer)"},
        429: {"description": "too many sign-ins from this address or for this name"},
    },
)
async def login(body: LoginRequest, state: State, client: Client) -> TokenResponse:
    state.signins.take(client.ip)
    name = " ".join(body.name.split())
    state.password_tries.take(name_key(name))
    player = await state.repos.players.protected(name)
    # One answer, after one scrypt, whether or not a password protects the name: a
    # failed sign-in must not tell which names have one.
    if player is None:
        await verify_unknown_async(body.password)
    if player is None or not await verify_password_async(body.password, player["password_hash"]):
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED,
            f"wrong password, or no password protects the name {name}: check both "
            "(a name without a password is taken by playing as a guest)",
        )
    log.info("signed in with a password", extra={"player_id": player["_id"]})
    return _tokens(state, await state.sessions.create(player["_id"], player["name"]))


@router.post(
    "/auth/password",
    summary="Protect your name with a password (or change it); ends your other sessions",
    responses={
        403: {"description": "the current password is missing or wrong"},
        409: {"description": "another player already protects this name or a look-alike"},
        429: {"description": "too many password attempts for this name"},
    },
)
async def set_password(body: SetPasswordRequest, player: Player, state: State) -> PlayerResponse:
    doc = await state.repos.players.get(player.player_id)
    if doc is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "no such player: sign in again")
    stored = doc.get("password_hash")
    if isinstance(stored, str):
        # A stolen access token alone must not take the name over for good.
        state.password_tries.take(name_key(player.name))
        if body.current_password is None or not await verify_password_async(
            body.current_password, stored
        ):
            raise HTTPException(status.HTTP_403_FORBIDDEN, "the current password is wrong")
    try:
        await state.repos.players.set_password(
            player.player_id, player.name, await hash_password_async(body.password)
        )
    except NameTaken as error:
        taken = str(error)
        same = name_key(taken) == name_key(player.name)
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            f"another player already protects the name {player.name} with a password"
            if same
            else f"another player protects {taken}, which looks like {player.name}: "
            "a password cannot protect a look-alike",
        ) from error
    # Whoever else held a session (a stolen token) is out: only this one goes on.
    ended = await _end_sessions(state, player.player_id, keep=player.session_id)
    log.info("password set", extra={"player_id": player.player_id, "sessions_ended": ended})
    return PlayerResponse(player_id=player.player_id, name=player.name, has_password=True)


@router.post(
    "/auth/refresh",
    summary="A new access token and refresh token for a refresh token (used once)",
    responses={401: {"description": "unknown, used, expired or signed-out refresh token"}},
)
async def refresh(body: RefreshRequest, state: State) -> TokenResponse:
    try:
        session = await state.sessions.refresh(body.refresh_token)
    except RefreshReused as error:
        closed = await state.session_sockets.close(error.session_id)
        log.warning("a spent refresh token came back: session revoked", extra={"closed": closed})
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, str(error)) from error
    except AuthError as error:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, str(error)) from error
    return _tokens(state, session)


@router.post(
    "/auth/logout",
    status_code=status.HTTP_204_NO_CONTENT,
    summary="Sign out: the session's tokens are refused from now on, its sockets closed",
)
async def logout(player: Player, state: State) -> Response:
    await state.sessions.revoke(player.session_id)
    closed = await state.session_sockets.close(player.session_id)
    log.info("signed out", extra={"player_id": player.player_id, "sockets_closed": closed})
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post(
    "/auth/logout-all",
    status_code=status.HTTP_204_NO_CONTENT,
    summary="Sign out everywhere: every session of the player ends, its sockets closed",
)
async def logout_all(player: Player, state: State) -> Response:
    ended = await _end_sessions(state, player.player_id, keep=None)
    log.info("signed out everywhere", extra={"player_id": player.player_id, "sessions": ended})
    return Response(status_code=status.HTTP_204_NO_CONTENT)


async def _end_sessions(state: AppState, player_id: str, keep: str | None) -> int:
    """Revoke the player's sessions but `keep`, and close their sockets; how many."""
    ended = await state.sessions.revoke_player(player_id, keep)
    for session_id in ended:
        await state.session_sockets.close(session_id)
    return len(ended)


@router.get("/me", summary="The signed-in player")
async def me(player: Player, state: State) -> PlayerResponse:
    doc = await state.repos.players.get(player.player_id)
    has_password = doc is not None and isinstance(doc.get("password_hash"), str)
    return PlayerResponse(player_id=player.player_id, name=player.name, has_password=has_password)
