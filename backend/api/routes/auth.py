"""Signing in: guest players get a signed, expiring token."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from fastapi import APIRouter, status

from backend.api.deps import Player, State
from backend.auth import Principal, issue_token
from backend.schemas import GuestRequest, PlayerResponse, TokenResponse

router = APIRouter(prefix="/api", tags=["auth"])


@router.post("/auth/guest", status_code=status.HTTP_201_CREATED, summary="Sign in as a guest")
async def guest(body: GuestRequest, state: State) -> TokenResponse:
    name = body.name.strip()
    player_id = "g" + uuid.uuid4().hex[:16]
    await state.repos.players.create_guest(player_id, name)
    issued = issue_token(
        Principal(player_id, name), state.settings.secret_key, state.settings.token_ttl
    )
    return TokenResponse(
        token=issued.token,
        player_id=player_id,
        name=name,
        expires_at=datetime.fromtimestamp(issued.expires_at, UTC),
    )


@router.get("/me", summary="The signed-in player")
async def me(player: Player) -> PlayerResponse:
    return PlayerResponse(player_id=player.player_id, name=player.name)
