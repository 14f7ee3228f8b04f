"""The `showdown` program: every subcommand answers --help, and the console script is installed."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.cli import COMMANDS, main


@pytest.mark.parametrize("command", COMMANDS)
def test_every_subcommand_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    assert f"showdown {command}" in capsys.readouterr().out


def test_top_level_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for command in COMMANDS:
        assert command in out


def test_console_script_is_installed() -> None:
    script = shutil.which("showdown") or str(Path(sys.executable).with_name("showdown"))
    result = subprocess.run([script, "--help"], capture_output=True, text=True, check=False)
    assert result.returncode == 0
    assert "replay" in result.stdout


def test_a_reader_that_goes_away_stops_the_program_quietly() -> None:
    # `showdown ... | head`: the pipe's reading end is closed before the program writes,
    # so its first print fails; it exits with the shell's code for that, no traceback.
    script = shutil.which("showdown") or str(Path(sys.executable).with_name("showdown"))
    process = subprocess.Popen(
        [script, "equity", "AhKh", "QsQd"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None
    process.stdout.close()
    _, err = process.communicate(timeout=120)
    assert process.returncode == 141
    assert err == b""


def test_bench_engine_prints_both_rates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--seconds", "0.2"]) == 0
    out = capsys.readouterr().out
    assert "showdown core" in out
    assert "pokerkit raw" in out
    assert "no-limit" in out and "limit" in out
    assert "live shuffle  DeckRandom" in out and "secrets.SystemRandom" in out


def test_bench_allin_prints_both_ways(capsys: pytest.CaptureFixture[str]) -> None:
    """Each spot timed one at a time and in bulk; the bench exits 1 if the answers differ."""
    assert main(["bench", "allin", "--seconds", "0"]) == 0
    out = capsys.readouterr().out
    assert out.count("one at a time") == 6 and "all spots:" in out


@pytest.mark.slow
def test_bench_server_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    # A real `showdown serve` with its embedded database, two tables, four spectators.
    assert main(["bench", "server", "--tables", "2", "--clients", "4", "--seconds", "1"]) == 0
    out = capsys.readouterr().out
    figures = ("hands/s", "messages/s", "p50", "p99", "server loop lag", "database writes")
    for figure in (*figures, "on tables' path", "journal syncs per hand", "players wait for"):
        assert figure in out, out
    assert "(4 connected)" in out and "0 states never arrived" in out
    assert re.search(r"silent spectators +0 ", out), out


@pytest.mark.slow
def test_bench_advice_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    # A real `showdown serve` with its AI worker: the advice comes from the worker's search.
    assert main(["bench", "advice", "--advice", "2"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"advice \(end to end\) +p50 \d+ ms +p95 \d+ ms", out), out
    assert "ping->pong" in out
    assert re.search(r"answered by +worker 2 +median [1-9]\d* simulated hands", out), out
