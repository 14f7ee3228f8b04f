"""`showdown worker`: answer the backend's AI decision queries."""

from __future__ import annotations

import argparse
import os

from showdown.commands import Subparsers, parser_for


def add_parser(subparsers: Subparsers) -> None:
    parser = parser_for(
        subparsers,
        "worker",
        "Connect to the backend's AI socket and answer bot and advice queries.",
    )
    parser.add_argument(
        "--server",
        default=os.environ.get("AI_SERVER_URL", "ws://127.0.0.1:8000/ws/ai"),
        help="the backend's AI socket, ws://HOST:PORT/ws/ai (http:// and a bare host work too)",
    )
    parser.add_argument(
        "--secret",
        default=None,
        help="the shared secret (default: the AI_SHARED_SECRET environment variable)",
    )
    parser.add_argument(
        "--concurrency", type=int, default=2, help="queries thought about at once (processes)"
    )
    parser.add_argument("--name", default="", help="a name for this worker in the server's stats")
    parser.add_argument(
        "--threads", action="store_true", help="think in threads instead of processes (debugging)"
    )
    parser.add_argument(
        "--no-train",
        action="store_true",
        help="do not offer to train the opponent models online (by default, with MONGODB_URL "
        "set, the worker runs `showdown train --watch` beside it; a lease in the database "
        "lets one trainer work at a time however many workers run)",
    )
    parser.add_argument("--verbose", "-v", action="store_true")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    import signal
    import socket

    from ai.worker import WorkerClient

    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(message)s",
    )
    secret = args.secret if args.secret is not None else os.environ.get("AI_SHARED_SECRET", "")
    if args.concurrency < 1:
        print("showdown worker: --concurrency must be at least 1")
        return 2
    client = WorkerClient(
        args.server,
        secret,
        concurrency=args.concurrency,
        name=args.name or f"worker@{socket.gethostname()}"[:64],
        threads=args.threads,
    )

    async def main() -> int:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        trainer = None
        if os.environ.get("MONGODB_URL") and not args.no_train:
            import sys

            from backend.db.embedded import die_with_parent

            # Its own process, which dies with the worker: training never takes a
            # decision's CPU time in this one.
            trainer = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "showdown.cli", "train", "--watch",
                stdin=asyncio.subprocess.DEVNULL, preexec_fn=die_with_parent,
            )  # fmt: skip
        try:
            return await client.run(stop)
        finally:
            if trainer is not None and trainer.returncode is None:
                trainer.terminate()
                await trainer.wait()

    return asyncio.run(main())
