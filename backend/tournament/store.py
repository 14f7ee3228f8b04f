"""Tournaments in the database: each director's state (written after every event, read
again on a restart) and, once one ends, a result per player for profiles and stats."""

from __future__ import annotations

from typing import Any

from pymongo.asynchronous.database import AsyncDatabase

from backend.tournament.director import State

Document = dict[str, Any]


class TournamentStore:
    def __init__(self, db: AsyncDatabase[Document]) -> None:
        self._col = db.tournaments
        self._results = db.tournament_results

    async def ensure_indexes(self) -> None:
        await self._results.create_index([("player_id", 1), ("finished_at", -1)])

    async def save(self, state: State) -> None:
        doc = state.model_dump(mode="json")
        await self._col.replace_one(
            {"_id": state.tournament_id}, {"_id": state.tournament_id, "state": doc}, upsert=True
        )

    async def all(self) -> list[State]:
        return [State.model_validate(doc["state"]) async for doc in self._col.find({})]

    async def file_results(self, results: list[Document]) -> None:
        """Once per tournament: the ids make a second filing (after a restart) a no-op."""
        for result in results:
            await self._results.replace_one({"_id": result["_id"]}, result, upsert=True)

    async def results_of(self, player_id: str) -> list[Document]:
        """Every result of the player, the latest first (the totals count them all)."""
        cursor = self._results.find({"player_id": player_id}).sort("finished_at", -1)
        return [doc async for doc in cursor]
