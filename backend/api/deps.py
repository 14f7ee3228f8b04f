"""Typed FastAPI dependencies: the app state, the signed-in player, the client's address."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pymongo.errors import PyMongoError

from backend.auth import AuthError, Principal, verify_token
from backend.proxies import ClientInfo, client_info
from backend.state import AppState

_bearer = HTTPBearer(auto_error=False, description="The token from POST /api/auth/guest")


def get_state(request: Request) -> AppState:
    state: AppState = request.app.state.showdown
    return state


State = Annotated[AppState, Depends(get_state)]


def _unauthorized(message: str) -> HTTPException:
    return HTTPException(
        status.HTTP_401_UNAUTHORIZED, message, headers={"WWW-Authenticate": "Bearer"}
    )


async def current_player(
    state: State,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Principal:
    if credentials is None:
        raise _unauthorized(
            "sign in first: POST /api/auth/guest, then send Authorization: Bearer <token>"
        )
    try:
        principal = verify_token(credentials.credentials, state.settings.secret_key)
        await state.sessions.check(principal)  # signed out: refused though unexpired
    except AuthError as error:
        raise _unauthorized(str(error)) from error
    except PyMongoError as error:
        raise HTTPException(
            status.HTTP_503_SERVICE_UNAVAILABLE,
            "cannot check the sign-in: the database does not answer; try again shortly",
            headers={"Retry-After": "1"},
        ) from error
    return principal


async def optional_player(
    state: State,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Principal | None:
    """The signed-in player if a token was sent (checked as for `Player`); else None."""
    if credentials is None:
        return None
    return await current_player(state, credentials)


def current_client(request: Request, state: State) -> ClientInfo:
    return client_info(request, state.settings.trusted_proxies)


Player = Annotated[Principal, Depends(current_player)]
MaybePlayer = Annotated[Principal | None, Depends(optional_player)]
Client = Annotated[ClientInfo, Depends(current_client)]
