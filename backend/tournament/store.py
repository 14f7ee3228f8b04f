"""Tournaments in the database: each director's state (written after every event, read
again on a restart) and, once one ends, a result per player for profiles and stats.

On a cluster the state is written fenced (backend.cluster.fencing): the director's
lease token rides on every write, and a director whose lease another node has taken
since is refused (`StaleOwner`), so two directors never both write one tournament."""

from __future__ import annotations

from typing import Any

from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from backend.cluster.fencing import StaleOwner, fenced_filter
from backend.tournament.director import State, Status

Document = dict[str, Any]


class TournamentStore:
    def __init__(self, db: AsyncDatabase[Document]) -> None:
        self._col = db.tournaments
        self._results = db.tournament_results

    async def ensure_indexes(self) -> None:
        await self._results.create_index([("player_id", 1), ("finished_at", -1)])

    async def save(self, state: State, fence: int | None = None) -> None:
        """The latest state; with `fence` (a cluster's lease token) refused, StaleOwner,
        once a later token has written it."""
        doc: Document = {"_id": state.tournament_id, "state": state.model_dump(mode="json")}
        if fence is None:
            await self._col.replace_one({"_id": state.tournament_id}, doc, upsert=True)
            return
        try:
            await self._col.replace_one(
                fenced_filter(state.tournament_id, fence), {**doc, "fence": fence}, upsert=True
            )
        except DuplicateKeyError as error:
            raise StaleOwner(
                f"tournament {state.tournament_id}: a later director wrote it"
            ) from error

    async def all(self) -> list[State]:
        return [State.model_validate(doc["state"]) async for doc in self._col.find({})]

    async def one(self, tournament_id: str) -> State | None:
        doc = await self._col.find_one({"_id": tournament_id})
        return State.model_validate(doc["state"]) if doc is not None else None

    async def unfinished(self) -> list[str]:
        """The tournaments a director must run (registering or running)."""
        cursor = self._col.find({"state.status": {"$ne": Status.FINISHED.value}}, {"_id": 1})
        return [str(doc["_id"]) async for doc in cursor]

    async def file_results(self, results: list[Document]) -> None:
        """Once per tournament: the ids make a second filing (after a restart) a no-op."""
        for result in results:
            await self._results.replace_one({"_id": result["_id"]}, result, upsert=True)

    async def results_of(self, player_id: str) -> list[Document]:
        """Every result of the player, the latest first (the totals count them all)."""
        cursor = self._results.find({"player_id": player_id}).sort("finished_at", -1)
        return [doc async for doc in cursor]
