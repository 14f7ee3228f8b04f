"""Signing in, refreshing and signing out.

A guest sign-in opens a session (backend.sessions) and answers an access token
of minutes with a refresh token; POST /auth/refresh trades the refresh token
for a new pair; POST /auth/logout revokes the session and closes its sockets.
"""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime

from fastapi import APIRouter, HTTPException, Response, status

from backend.api.deps import Client, Player, State
from backend.auth import AuthError, issue_token
from backend.schemas import GuestRequest, PlayerResponse, RefreshRequest, TokenResponse
from backend.sessions import Refreshed
from backend.state import AppState

log = logging.getLogger(__name__)
router = APIRouter(prefix="/api", tags=["auth"])


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
    responses={429: {"description": "too many sign-ins from this address (Retry-After)"}},
)
async def guest(body: GuestRequest, state: State, client: Client) -> TokenResponse:
    state.signins.take(client.ip)
    player_id = "g" + uuid.uuid4().hex[:16]
    await state.repos.players.create_guest(player_id, body.name)
    return _tokens(state, await state.sessions.create(player_id, body.name))


@router.post(
    "/auth/refresh",
    summary="A new access token and refresh token for a refresh token (used once)",
    responses={401: {"description": "unknown, used, expired or signed-out refresh token"}},
)
async def refresh(body: RefreshRequest, state: State) -> TokenResponse:
    try:
        session = await state.sessions.refresh(body.refresh_token)
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


@router.get("/me", summary="The signed-in player")
async def me(player: Player) -> PlayerResponse:
    return PlayerResponse(player_id=player.player_id, name=player.name)
