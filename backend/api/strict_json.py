"""REST bodies parsed as strict JSON: no NaN or Infinity, no lone surrogate, bounded depth.

Python's json module accepts `NaN`, `Infinity` and `"\\ud800"` (a lone surrogate,
which is not text: it cannot even be encoded as UTF-8) and recurses as deep as
the body nests. Each got as far as a model, the database or the 422 response
itself and ended as an HTTP 500 with a traceback in the log. Here the body is
parsed by pydantic's parser instead (the one that validates the socket
messages), which refuses all of them; a refusal is FastAPI's 422 `json_invalid`
that names the problem, before any route (and any quota) runs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute
from pydantic_core import from_json


def _diagnose(text: str, parser_message: str) -> str:
    """The reason, in words: what the standard library would have let through, or the
    strict parser's own message."""
    constants: list[str] = []

    def constant(name: str) -> float:
        constants.append(name)
        return 0.0

    try:
        json.loads(text, parse_constant=constant)
    except (ValueError, RecursionError):
        return f"not valid JSON: {parser_message}"
    if constants:
        return f"{constants[0]} is not a JSON number: send a finite number"
    return (
        "a string holds a lone surrogate (a \\ud800-\\udfff escape without its pair), "
        "which is not text: send valid Unicode"
    )


def strict_loads(body: bytes) -> Any:
    """The body's JSON value; json.JSONDecodeError (FastAPI's 422) saying what is wrong."""
    try:
        return from_json(body, allow_inf_nan=False)
    except ValueError as error:
        text = body.decode("utf-8", errors="replace")
        raise json.JSONDecodeError(_diagnose(text, str(error)), text, 0) from None


class StrictJsonRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = strict_loads(await self.body())
        return self._json


class StrictJsonRoute(APIRoute):
    """An API route whose JSON body is parsed by `strict_loads`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJsonRequest(request.scope, request.receive))

        return strict
