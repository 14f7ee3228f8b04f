"""Serving the built frontend (frontend/dist) at / with a single-page-app fallback."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, HTTPException, status
from fastapi.responses import FileResponse

# Paths that belong to the server: never answered with index.html.
_RESERVED = ("api/", "ws/", "healthz", "readyz", "docs", "openapi.json", "redoc")

DEFAULT_DIR = Path(__file__).resolve().parent.parent / "frontend" / "dist"


def mount_frontend(app: FastAPI, directory: Path) -> None:
    root = directory.resolve()
    index = root / "index.html"

    @app.get("/{path:path}", include_in_schema=False)
    async def spa(path: str) -> FileResponse:
        if path.startswith(_RESERVED):
            raise HTTPException(status.HTTP_404_NOT_FOUND, "not found")
        candidate = (root / path).resolve()
        if path and candidate.is_file() and candidate.is_relative_to(root):
            return FileResponse(candidate)
        if not index.is_file():
            raise HTTPException(status.HTTP_404_NOT_FOUND, "the frontend is not built")
        # Client-side routes get the app; index.html must not be cached across deploys.
        return FileResponse(index, headers={"Cache-Control": "no-cache"})
