"""The blueprint priors' disk cache: built once, read after, the same numbers as a fresh
build, and never in the way where it cannot be written."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ai.policy.blueprint import DEFAULT_ARTEFACT, default_blueprint
from ai.policy.nway.lookup import shipped
from ai.search import prior_cache
from ai.search.blueprint_prior import blueprint_shares, nway_prior, nway_tables, shares_of
from ai.search.prior_cache import cached


def test_tables_are_built_once_then_read_from_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(prior_cache, "CACHE_DIR", tmp_path)
    builds: list[int] = []

    def build() -> tuple[np.ndarray, np.ndarray]:
        builds.append(1)
        return np.arange(6.0).reshape(2, 3), np.array([1, 2], dtype=np.int64)

    first = cached("t", DEFAULT_ARTEFACT, build)
    again = cached("t", DEFAULT_ARTEFACT, build)
    assert len(builds) == 1
    for a, b in zip(first, again, strict=True):
        assert a.dtype == b.dtype and np.array_equal(a, b)
    assert [p.name.startswith("t-") for p in tmp_path.iterdir()] == [True]


def test_another_key_builds_again_and_the_older_file_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(prior_cache, "CACHE_DIR", tmp_path)
    cached("t", DEFAULT_ARTEFACT, lambda: (np.zeros(2),))
    old = next(tmp_path.iterdir())
    # Our code changed: another digest, another key.
    monkeypatch.setattr(prior_cache, "code_digest", lambda: b"other code")
    (new,) = cached("t", DEFAULT_ARTEFACT, lambda: (np.ones(2),))
    assert np.array_equal(new, np.ones(2))
    assert not old.exists() and len(list(tmp_path.iterdir())) == 1


def test_an_unwritable_cache_builds_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setattr(prior_cache, "CACHE_DIR", blocker / "priors")
    (out,) = cached("t", DEFAULT_ARTEFACT, lambda: (np.full(3, 7.0),))
    assert np.array_equal(out, np.full(3, 7.0))


def test_the_cached_priors_are_the_computed_ones() -> None:
    assert np.array_equal(blueprint_shares(), shares_of(default_blueprint()))
    shares, sizes = nway_prior("nolimit-hu")
    fresh_shares, fresh_sizes = nway_tables(shipped("nolimit-hu"))
    assert np.array_equal(shares, fresh_shares) and np.array_equal(sizes, fresh_sizes)
