"""Typed FastAPI dependencies: the app state and the signed-in player."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from backend.auth import AuthError, Principal, verify_token
from backend.state import AppState

_bearer = HTTPBearer(auto_error=False, description="The token from POST /api/auth/guest")


def get_state(request: Request) -> AppState:
    state: AppState = request.app.state.showdown
    return state


State = Annotated[AppState, Depends(get_state)]


def current_player(
    state: State,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Principal:
    if credentials is None:
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED,
            "sign in first: POST /api/auth/guest, then send Authorization: Bearer <token>",
            headers={"WWW-Authenticate": "Bearer"},
        )
    try:
        return verify_token(credentials.credentials, state.settings.secret_key)
    except AuthError as error:
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED, str(error), headers={"WWW-Authenticate": "Bearer"}
        ) from error


Player = Annotated[Principal, Depends(current_player)]
