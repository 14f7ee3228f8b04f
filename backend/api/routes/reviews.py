"""Hand review: the advisor's values of each of your decisions in a finished hand, graded.

Only a player dealt into the hand may ask (403 otherwise); the review sees what they
saw then and nothing more (backend.review.decisions).
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Response, status

from backend.api.deps import Player, State
from backend.api.strict_json import StrictJsonRoute
from backend.review.schemas import ReviewState, ReviewStatus
from backend.review.service import ReviewService

router = APIRouter(prefix="/api/hands", tags=["hands"], route_class=StrictJsonRoute)

_ERRORS: dict[int | str, dict[str, str]] = {
    403: {"description": "you were not dealt into this hand"},
    404: {"description": "no such hand (GET: or no review asked for yet)"},
    422: {"description": "the hand cannot be reviewed"},
    429: {"description": "too many reviews in progress or started (Retry-After)"},
}


def _service(state: State) -> ReviewService:
    if state.reviews is None:  # pragma: no cover - the app always sets it
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, "reviews are not available")
    return state.reviews


@router.post(
    "/{hand_id}/review",
    summary="Ask for the review of your decisions in one of your hands",
    description="202 while the AI workers compute it (poll GET for progress); 200 with the "
    "stored review once done. The AI answers reviews only when it has no live decision.",
    status_code=status.HTTP_202_ACCEPTED,
    responses={200: {"description": "reviewed already: the stored review"}, **_ERRORS},
)
async def start_review(
    hand_id: str, state: State, player: Player, response: Response
) -> ReviewStatus:
    result = await _service(state).start(hand_id, player.player_id)
    if result.status is ReviewState.DONE:
        response.status_code = status.HTTP_200_OK
    return result


@router.get(
    "/{hand_id}/review",
    summary="Your review of one of your hands: progress, or the result",
    responses=_ERRORS,
)
async def get_review(hand_id: str, state: State, player: Player) -> ReviewStatus:
    result = await _service(state).status(hand_id, player.player_id)
    if result is None:
        raise HTTPException(
            status.HTTP_404_NOT_FOUND,
            f"no review of this hand yet: POST /api/hands/{hand_id}/review to ask for one",
        )
    return result
