"""`showdown serve`: the database (embedded unless MONGODB_URL), the server and one AI worker."""

from __future__ import annotations

import argparse
from pathlib import Path

from showdown.commands import Subparsers, parser_for


def add_parser(subparsers: Subparsers) -> None:
    parser = parser_for(
        subparsers,
        "serve",
        "Run Showdown: the server, an embedded database unless MONGODB_URL is set, "
        "and one AI worker.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="interface to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=Path(".data"),
        help="embedded database files and generated secrets (default: .data)",
    )
    parser.add_argument(
        "--no-worker", action="store_true", help="do not start an AI worker child process"
    )
    parser.add_argument(
        "--nodes",
        type=int,
        default=0,
        help="run N server nodes on ports PORT..PORT+N-1 with a NATS bus between them "
        "(docs/cluster.md); default: one process, no bus",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import asyncio

    from backend.db.embedded import EmbeddedDatabaseError
    from backend.logging import configure_logging
    from backend.serve import ServeOptions, serve
    from backend.settings import Settings

    settings = Settings()
    configure_logging(settings.log_level, settings.log_format)
    options = ServeOptions(
        host=args.host, port=args.port, data_dir=args.data_dir, worker=not args.no_worker
    )
    if args.nodes < 0:
        print("showdown serve: --nodes must be at least 1", flush=True)
        return 2
    try:
        if args.nodes:
            from backend.cluster.launch import serve_nodes

            return asyncio.run(serve_nodes(settings, options, args.nodes))
        return asyncio.run(serve(settings, options))
    except EmbeddedDatabaseError as error:
        print(f"showdown serve: {error}", flush=True)
        return 1
    except KeyboardInterrupt:
        return 0
