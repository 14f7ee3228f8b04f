"""Disk cache of the tables the search derives from the shipped blueprints.

Reducing a blueprint to its priors (`blueprint_prior`) and packing it for the kernel
(`rollout_blueprint.pack`) costs about ten seconds of CPU in every process that loads
them: each AI worker, and each test process that runs the search. The results are a few
arrays that depend only on the artefact and on our code, so they are kept on disk next
to the sources, as numba keeps its compiled kernels (`__pycache__`, git-ignored), under
a key hashing the artefact's bytes and every source file of `ai`: any change to either
builds them again. Where the directory cannot be written (a read-only install), the
tables are built in memory as before.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

log = logging.getLogger(__name__)

AI_ROOT = Path(__file__).resolve().parent.parent
CACHE_DIR = Path(__file__).resolve().parent / "__pycache__" / "priors"

Arrays = tuple[npt.NDArray[np.generic], ...]


@functools.cache
def code_digest() -> bytes:
    """A digest of every source file of the `ai` package (its paths and bytes)."""
    h = hashlib.sha256()
    for path in sorted(AI_ROOT.rglob("*.py")):
        h.update(str(path.relative_to(AI_ROOT)).encode())
        h.update(path.read_bytes())
    return h.digest()


def artefact_bytes(name: str) -> bytes:
    """The bytes of a file shipped under ai/data."""
    return (resources.files("ai.data") / name).read_bytes()


def cache_path(name: str, artefact: str) -> Path:
    """Where the tables `name` of the artefact `artefact` are kept for this code."""
    h = hashlib.sha256(code_digest())
    h.update(name.encode())
    h.update(artefact_bytes(artefact))
    return CACHE_DIR / f"{name}-{h.hexdigest()[:24]}.npz"


def cached(name: str, artefact: str, build: Callable[[], Arrays]) -> Arrays:
    """The arrays `build()` returns, read from the disk cache when an earlier process of
    the same code built them from the same artefact, else built and stored."""
    path = cache_path(name, artefact)
    try:
        with np.load(path) as stored:
            return tuple(stored[f"arr_{i}"] for i in range(len(stored.files)))
    except (OSError, ValueError, KeyError):  # not there yet, or a half-written file
        pass
    arrays = build()
    try:
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        # Written aside then renamed: processes building at once never read half a file.
        partial = path.with_name(f"{path.stem}.{os.getpid()}.partial.npz")
        np.savez(partial, *arrays)
        os.replace(partial, path)
        for older in CACHE_DIR.glob(f"{name}-*.npz"):  # earlier code's: never read again
            if older != path:
                older.unlink(missing_ok=True)
    except OSError as error:
        log.info("prior cache not written (%s): built in memory", error)
    return arrays
