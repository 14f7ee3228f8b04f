"""Structured logs: JSON lines (or key=value text) carrying table, hand and request ids.

The ids live in context variables, so every log line written while handling a
table or an AI query carries them without passing them around.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

table_id_var: ContextVar[str | None] = ContextVar("table_id", default=None)
hand_no_var: ContextVar[int | None] = ContextVar("hand_no", default=None)
request_id_var: ContextVar[str | None] = ContextVar("request_id", default=None)

_CONTEXT = (("table_id", table_id_var), ("hand_no", hand_no_var), ("request_id", request_id_var))
# Attributes every LogRecord has; anything else came in through `extra=`.
_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "color_message"}


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "ts": round(record.created, 3),
        "level": record.levelname.lower(),
        "logger": record.name,
        "msg": record.getMessage(),
    }
    for name, var in _CONTEXT:
        value = var.get()
        if value is not None:
            fields[name] = value
    for key, value in record.__dict__.items():
        if key not in _STANDARD and not key.startswith("_"):
            fields[key] = value
    if record.exc_info:
        fields["exc"] = logging.Formatter().formatException(record.exc_info)
    return fields


# Credentials that must never reach a log line: a `token=` or a private table's
# `invite=` in a URL (uvicorn logs request paths with their query) and anything shaped
# like a JWT.
_SECRETS = re.compile(
    r"(?P<param>(?:(?:access_|refresh_)?token|invite)=)[^&\s\"']+"
    r"|eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]+"
)


def redact(text: str) -> str:
    return _SECRETS.sub(lambda m: (m.group("param") or "") + "[redacted]", text)


class RedactSecrets(logging.Filter):
    """Replaces tokens in the message (and its arguments) before any handler sees it."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        for key, value in list(record.__dict__.items()):
            if key not in _STANDARD and isinstance(value, str):
                setattr(record, key, redact(value))
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return json.dumps(_fields(record), default=str)


class KeyValueFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        fields = _fields(record)
        stamp = time.strftime("%H:%M:%S", time.localtime(fields.pop("ts")))
        parts = [stamp, fields.pop("level").upper(), fields.pop("logger")]
        parts.append(json.dumps(fields.pop("msg")))
        exc = fields.pop("exc", None)
        parts += [f"{k}={v}" for k, v in fields.items()]
        return " ".join(parts) + (f"\n{exc}" if exc else "")


def configure_logging(level: str = "INFO", fmt: str = "json") -> None:
    """Route the root, uvicorn and our loggers to stderr in one format."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else KeyValueFormatter())
    handler.addFilter(RedactSecrets())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
    logging.getLogger("pymongo").setLevel(logging.WARNING)


@contextmanager
def log_context(
    *, table_id: str | None = None, hand_no: int | None = None, request_id: str | None = None
) -> Iterator[None]:
    """Set the ids for log lines written inside the block."""
    table_token = table_id_var.set(table_id) if table_id is not None else None
    hand_token = hand_no_var.set(hand_no) if hand_no is not None else None
    request_token = request_id_var.set(request_id) if request_id is not None else None
    try:
        yield
    finally:
        if request_token is not None:
            request_id_var.reset(request_token)
        if hand_token is not None:
            hand_no_var.reset(hand_token)
        if table_token is not None:
            table_id_var.reset(table_token)
