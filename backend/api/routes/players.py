"""Players' statistics and results graphs, and the leaderboard (backend.db.player_stats).

Public like the lobby: statistics are counted from what was public at the table
(holdem.stats), so they never reveal a card that was not shown.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, status

from backend.api.deps import State
from backend.api.strict_json import StrictJsonRoute
from backend.db.codec import Document
from backend.db.player_stats import SERIES
from backend.stats_schemas import (
    Figures,
    Game,
    LeaderboardPage,
    LeaderRow,
    PlayerStatsPage,
    ResultPoint,
    ResultsPage,
    StatLine,
)
from holdem.config import Variant
from holdem.stats import GameKey, StatCounts, ratios

router = APIRouter(tags=["players"], route_class=StrictJsonRoute)

VariantFilter = Annotated[Variant | None, Query(description="game type")]
SmallBlind = Annotated[int | None, Query(ge=1, description="stakes: the small blind")]
BigBlind = Annotated[int | None, Query(ge=1, description="stakes: the big blind")]


def _game_query(
    variant: Variant | None, small_blind: int | None, big_blind: int | None
) -> Document:
    query: Document = {}
    if variant is not None:
        query["game.variant"] = str(variant)
    if small_blind is not None:
        query["game.small_blind"] = small_blind
    if big_blind is not None:
        query["game.big_blind"] = big_blind
    return query


def _line(counts: StatCounts, game: Document | None) -> StatLine:
    key = GameKey(**game) if game is not None else None
    return StatLine(
        game=Game(**game, stakes=key.stakes) if key is not None and game is not None else None,
        hands=counts.hands,
        counts=counts.as_dict(),
        figures=Figures(**ratios(counts)),
    )


async def _known(state: State, player_id: str, found: list[Document]) -> Document | None:
    """The player's document (a signed-in guest, or one seated now: a bot has none);
    404 only for an id nobody has. A player with no hands yet has statistics of zero
    hands: a new table's HUDs ask for every seat before a hand is dealt."""
    player = await state.repos.players.get(player_id)
    if player is not None or found:
        return player
    for runtime in state.tables.all():
        seat = runtime.table.find_seat(player_id)
        if seat is not None:
            return {"_id": player_id, "name": seat.name, "is_bot": seat.is_bot}
    raise HTTPException(status.HTTP_404_NOT_FOUND, f"no player {player_id!r}")


@router.get("/api/players/{player_id}/stats", summary="A player's statistics, per game and stakes")
async def player_stats(
    player_id: str,
    state: State,
    variant: VariantFilter = None,
    small_blind: SmallBlind = None,
    big_blind: BigBlind = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> PlayerStatsPage:
    stats = state.repos.hands.stats
    docs = await stats.summaries(player_id, _game_query(variant, small_blind, big_blind))
    player = await _known(state, player_id, docs if docs else await stats.summaries(player_id))
    per_game = [(StatCounts.from_mapping(doc), doc["game"]) for doc in docs]
    total = sum((counts for counts, _ in per_game), StatCounts())
    name = docs[0].get("name") if docs else None
    return PlayerStatsPage(
        player_id=player_id,
        name=player.get("name") if player is not None else name,
        is_bot=bool(docs[0].get("is_bot") if docs else player and player.get("is_bot")),
        total=_line(total, None),
        items=[_line(c, g) for c, g in per_game[offset : offset + limit]],
        total_items=len(per_game),
        limit=limit,
        offset=offset,
    )


@router.get(
    "/api/players/{player_id}/results",
    summary="A player's cumulative winnings over hands (the results graph)",
)
async def player_results(
    player_id: str,
    state: State,
    variant: VariantFilter = None,
    small_blind: SmallBlind = None,
    big_blind: BigBlind = None,
    since: Annotated[datetime | None, Query(description="hands played at or after")] = None,
    until: Annotated[datetime | None, Query(description="hands played at or before")] = None,
    limit: Annotated[int, Query(ge=1, le=5000)] = 2000,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> ResultsPage:
    if since is not None and until is not None and since > until:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, "since is after until")
    games = _game_query(variant, small_blind, big_blind)
    stats = state.repos.hands.stats
    summaries = await stats.summaries(player_id, games)
    if not summaries:
        await _known(state, player_id, await stats.summaries(player_id))
    size = await stats.graph_size(player_id, summaries, games)
    # A point is a block of hands: one overlapping the range counts whole.
    query = dict(games)
    if since is not None:
        query["last_at"] = {"$gte": since}
    if until is not None:
        query["first_at"] = {"$lte": until}
    blocks = await stats.blocks(player_id, size, query)
    running: dict[str, float] = dict.fromkeys(SERIES, 0.0)
    hands = 0
    points: list[ResultPoint] = []
    for block in blocks:
        hands += int(block["hands"])
        for name in SERIES:
            running[name] += float(block.get(name, 0))
        fields: dict[str, Any] = dict(running)
        points.append(
            ResultPoint(hands=hands, first_at=block["first_at"], last_at=block["last_at"], **fields)
        )
    return ResultsPage(
        player_id=player_id,
        hands_per_point=size,
        items=points[offset : offset + limit],
        total=len(points),
        limit=limit,
        offset=offset,
    )


@router.get("/api/leaderboard", summary="Players of a game type by bb/100, best first")
async def leaderboard(
    state: State,
    variant: Annotated[Variant, Query(description="game type")] = Variant.NO_LIMIT,
    min_hands: Annotated[int, Query(ge=1, le=1_000_000)] = 100,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> LeaderboardPage:
    rows, total = await state.repos.hands.stats.leaderboard(str(variant), min_hands, limit, offset)
    return LeaderboardPage(
        variant=variant,
        min_hands=min_hands,
        items=[
            LeaderRow(
                rank=offset + i + 1,
                player_id=str(row["_id"]),
                name=row.get("name"),
                is_bot=bool(row.get("is_bot")),
                hands=int(row["hands"]),
                bb_per_100=float(row["bb_per_100"]),
            )
            for i, row in enumerate(rows)
        ],
        total=total,
        limit=limit,
        offset=offset,
    )
