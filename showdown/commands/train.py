"""`showdown train`: train the opponent models and report how well they predict.

`showdown train blueprint ...` instead trains the self-play baseline policy by
counterfactual regret minimisation (`ai.policy.training`, docs/blueprint.md).

Sources: the database (default: the embedded one under --data-dir, or
MONGODB_URL / --mongodb-url), PHH files (--phh DIR, no database needed), or
recorded arena matches (--records FILE from `showdown arena --record FILE`).
The report (k-fold cross-validation against the baselines, per street and
player type, confusion and calibration plots) goes to --out; with --json the
last line printed is one JSON object of the cross-validated figures.
"""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from showdown.commands import Subparsers, parser_for

if TYPE_CHECKING:  # heavy imports stay inside run (fast --help)
    from pymongo.asynchronous.database import AsyncDatabase

    from ai.models.dataset import Dataset
    from ai.models.public import PublicHand
    from ai.models.training import TrainConfig


def add_parser(subparsers: Subparsers) -> None:
    parser = parser_for(
        subparsers,
        "train",
        "Train the opponent models from stored hands, PHH files or recorded arena matches.",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--phh", type=Path, metavar="DIR", help="read every *.phh under DIR")
    source.add_argument(
        "--records",
        type=Path,
        action="append",
        metavar="FILE",
        help="a recorded arena (showdown arena --record FILE); may repeat",
    )
    parser.add_argument(
        "--data-dir", type=Path, default=Path(".data"), help="the embedded database's directory"
    )
    parser.add_argument(
        "--mongodb-url",
        default=os.environ.get("MONGODB_URL", ""),
        help="train from this database instead of the embedded one (default: MONGODB_URL)",
    )
    parser.add_argument("--folds", type=int, default=5, help="cross-validation folds (2-20)")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--out", type=Path, default=Path("train-report"), help="where the report goes"
    )
    parser.add_argument(
        "--export", type=Path, metavar="FILE", help="also write the population network (.npz)"
    )
    parser.add_argument(
        "--publish",
        action="store_true",
        help="store the trained version in the database if it is no worse than the current",
    )
    parser.add_argument(
        "--adaptation",
        action="store_true",
        help="also measure per-player models: 200 hands of each player against the population",
    )
    parser.add_argument(
        "--watch",
        action="store_true",
        help="keep training online from the database as hands arrive (a worker starts this)",
    )
    parser.add_argument("--json", action="store_true", help="last line: the figures as JSON")
    parser.set_defaults(run=run)
    targets = parser.add_subparsers(
        dest="target", metavar="blueprint", help="train the blueprint instead (see its --help)"
    )
    _add_blueprint_parser(targets)


def _add_blueprint_parser(targets: Subparsers) -> None:
    parser = parser_for(
        targets,
        "blueprint",
        "Train the self-play baseline policy (MCCFR over a card and action abstraction): "
        "progress on stderr, a resumable checkpoint, a report with plots, the artefact.",
    )
    parser.add_argument(
        "--game",
        choices=("limit-hu", "leduc", "nolimit-hu", "limit-3max", "nolimit-6max", "limit-6max"),
        default="limit-hu",
        help="heads-up Limit Hold'em, Leduc hold'em (exact exploitability; a check), "
        "No-Limit heads-up 100 bb, three-handed Limit, No-Limit 6-max 100 bb, "
        "six-handed Limit (ai.policy.nway)",
    )  # fmt: skip
    parser.add_argument(
        "--iterations", type=int, default=1_000_000, help="total MCCFR iterations (deals)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--buckets", default="12,12,16", metavar="F,T,R",
        help="HS buckets on the flop, turn, river (flop and turn double with a draw flag)",
    )  # fmt: skip
    parser.add_argument(
        "--eval-every", type=int, default=100_000, help="iterations between checkpoints"
    )
    parser.add_argument(
        "--out", type=Path, default=Path("blueprint-run"), help="directory for the checkpoint, "
        "the report (report.json, convergence.png) and the artefact (blueprint.npz)",
    )  # fmt: skip
    parser.add_argument(
        "--resume", type=Path, metavar="CHECKPOINT", help="continue from a checkpoint.npz"
    )
    parser.add_argument(
        "--best-response", type=int, default=0, metavar="N",
        help="at the end, learn a best response per seat in the abstract game (N "
        "iterations each) and report its value: a lower bound on the exploitability",
    )  # fmt: skip
    parser.add_argument(
        "--response-deals", type=int, default=100_000, help="deals valuing each best response"
    )
    parser.set_defaults(run=run_blueprint)


def run_blueprint(args: argparse.Namespace) -> int:
    from ai.policy.training import TrainSettings, train

    try:
        hs = tuple(int(b) for b in args.buckets.split(","))
        if len(hs) != 3 or min(hs) < 1:
            raise ValueError
    except ValueError:
        _note(f"--buckets wants three positive counts like 12,12,16, not {args.buckets!r}")
        return 2
    settings = TrainSettings(
        game=args.game,
        iterations=args.iterations,
        seed=args.seed,
        hs_buckets=(hs[0], hs[1], hs[2]),
        eval_every=args.eval_every,
        best_response=args.best_response,
        response_deals=args.response_deals,
    )
    try:
        train(settings, args.out, args.resume, note=_note)
    except (OSError, ValueError) as error:
        _note(f"blueprint: {error}")
        return 2
    return 0


def _note(text: str) -> None:
    import sys

    print(f"train: {text}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    import asyncio

    if not 2 <= args.folds <= 20:
        _note("--folds must be from 2 to 20")
        return 2
    if args.watch:
        return asyncio.run(_watch(args))
    try:
        hands, sources = _load(args)
    except (OSError, ValueError) as error:
        _note(f"cannot read the hands: {error}")
        return 2
    return _train(args, hands, sources)


def _recorded_strengths(args: argparse.Namespace) -> Any:
    """For recorded arena matches: each decision's true holding strength, to score the
    holding-conditioned prediction (evaluation only; see ai.models.holdings)."""
    from ai.arena.record import read_records
    from ai.models.holdings import true_strengths

    return true_strengths(doc for path in args.records for doc in read_records(path))


def _load(args: argparse.Namespace) -> tuple[list[PublicHand], str]:
    import asyncio

    from ai.arena.record import read_records
    from ai.models.public import from_phh, from_record_doc
    from holdem.phh import PhhError, parse_phh

    if args.phh is not None:
        files = sorted(args.phh.rglob("*.phh"))
        hands = []
        for path in files:
            try:
                hands.append(from_phh(parse_phh(path.read_text()), key=str(path)))
            except PhhError as error:
                _note(f"{path}: skipped ({error})")
        return hands, f"{len(files)} PHH files under {args.phh}"
    if args.records:
        hands = [from_record_doc(doc) for path in args.records for doc in read_records(path)]
        return hands, ", ".join(str(p) for p in args.records)
    return asyncio.run(_from_database(args)), "the database"


async def _from_database(args: argparse.Namespace) -> list[PublicHand]:
    from ai.models.store import ModelStore

    async with _database(args) as db:
        return [hand for _, hand in await ModelStore(db).hands()]


@contextlib.asynccontextmanager
async def _database(args: argparse.Namespace) -> AsyncIterator[AsyncDatabase[dict[str, Any]]]:
    """The database named by --mongodb-url / MONGODB_URL, else the embedded one under
    --data-dir, started for the duration (with the credentials `showdown serve` made)."""
    from pymongo import AsyncMongoClient

    embedded = None
    url = args.mongodb_url
    if not url:
        from backend.db.embedded import EmbeddedMongo

        embedded = EmbeddedMongo(args.data_dir / "mongo").start()
        url = embedded.url
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(url, tz_aware=True)
    try:
        yield client.get_default_database("showdown")
    finally:
        await client.close()
        if embedded is not None:
            embedded.stop()


def _train(args: argparse.Namespace, hands: list[PublicHand], sources: str) -> int:
    import json

    import torch

    from ai.arena.progress import ProgressLine
    from ai.models.dataset import build_dataset
    from ai.models.evaluation import cross_validate
    from ai.models.report import summary, write_report
    from ai.models.training import TrainConfig, train

    torch.set_num_threads(1)  # one core: the other serves the room
    if not hands:
        _note(f"no hands in {sources}")
        return 2
    _note(f"{len(hands)} hands from {sources}")
    line = ProgressLine()
    data, _ = build_dataset(hands, progress=lambda k: line(k, len(hands)) if k % 200 == 0 else None)
    line(len(hands), len(hands))
    _note(f"{len(data)} decisions of {len(data.players)} players ({data.skipped} hands skipped)")
    played = len(set(data.hand.tolist()))
    if played < args.folds:
        _note(f"{played} hands cannot be split into {args.folds} folds")
        return 2
    config = TrainConfig(epochs=args.epochs, seed=args.seed)
    _note(f"{args.folds}-fold cross-validation")
    cv = cross_validate(data, args.folds, config, progress=lambda k, n: _note(f"fold {k}/{n} done"))
    figures = summary(cv)
    conditioned = None
    if args.records:
        from ai.models.holdings import conditioned_scores

        strengths = _recorded_strengths(args)
        if len(strengths) == len(data):
            conditioned = conditioned_scores(
                cv.probs, strengths, data.x, data.action, data.example_types()
            )
            figures["holding_conditioned"] = {k: v.brief() for k, v in conditioned.items()}
    report = write_report(cv, args.out, sources, conditioned)
    _note(f"report written to {report}")
    if args.adaptation:
        figures["adaptation"] = _adaptation(data, config, args.out)
    if args.export or args.publish:
        _note("training the population network on every decision")
        weights = train(data, config)
        if args.export:
            args.export.write_bytes(weights.to_bytes())
            _note(f"population network written to {args.export}")
        if args.publish:
            import asyncio

            asyncio.run(_publish(args, hands))
    if args.json:
        print(json.dumps(figures))
    else:
        base = figures["baselines"]
        freq, major = base["frequency"], base["majority"]
        print(
            f"accuracy {100 * figures['accuracy']:.1f}%, log-loss {figures['log_loss']:.3f} "
            f"over {figures['examples']} decisions; frequency table "
            f"{100 * freq['accuracy']:.1f}% / {freq['log_loss']:.3f}, "
            f"majority {100 * major['accuracy']:.1f}% / {major['log_loss']:.3f}"
        )
    return 0


def _adaptation(data: Dataset, config: TrainConfig, out: Path) -> list[dict[str, object]]:
    from ai.models.fit import adaptation

    _note("adaptation: per-player models on 200 hands against the population network")
    rows = []
    lines = [
        "| player | type | tuned on | scored on | generic log-loss | own log-loss |",
        "|---|---|---|---|---|---|",
    ]
    for a in adaptation(data, config=config):
        rows.append(a.__dict__)
        lines.append(
            f"| {a.player} | {a.type} | {a.tuned_on} | {a.evaluated_on} "
            f"| {a.generic_log_loss:.3f} | {a.player_log_loss:.3f} |"
        )
    (out / "adaptation.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    _note(f"adaptation table written to {out / 'adaptation.md'}")
    return rows


async def _publish(args: argparse.Namespace, hands: list[PublicHand]) -> None:
    from ai.models.fit import fit_version
    from ai.models.store import ModelStore
    from ai.models.training import TrainConfig

    async with _database(args) as db:
        store = ModelStore(db)
        current_version = await store.current_version()
        current = await store.load(current_version)
        result = fit_version(hands, current, TrainConfig(epochs=args.epochs, seed=args.seed), _note)
        if not result.accepted:
            _note("not published: worse than the current version on the newest hands")
            return
        version = await store.publish(
            result.generic, result.players, result.metrics, current_version
        )
        await store.save_stats(result.book, result.book.players)
        _note(f"published version {version}" if version else "another version was published first")


async def _watch(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    import signal

    from ai.models.online import OnlineTrainer  # PyTorch is loaded at the first fit
    from ai.models.store import ModelStore
    from ai.models.train_config import TrainConfig

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    # Stop at once on a signal, even mid-fit (a fit runs in a thread that cannot be
    # cancelled): nothing here needs a clean stop (every write is one atomic operation,
    # the lease runs out), and a trainer that lingers keeps its worker's pipes open.
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, os._exit, 0)
    async with _database(args) as db:
        config = TrainConfig(epochs=args.epochs, seed=args.seed)  # the defaults' unless given
        await OnlineTrainer(ModelStore(db), config=config).run(asyncio.Event())
    return 0
