"""Hand histories: PHH export, import and replay, pokerkit's own reader, `showdown replay`."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path

import pokerkit as pk
import pytest
from holdem_testlib import deck, nl, play, random_action, seated_table

from holdem.actions import Action, EventKind
from holdem.config import AnteMode, TableConfig, Variant
from holdem.phh import PhhError, parse_phh, replay_phh, replay_text, to_phh
from holdem.table import Table
from showdown.cli import main

DATA = Path(__file__).parent / "data"
SAMPLES = {
    "heads_up_nl_all_in.phh": [350, 0],
    "six_max_fl.phh": [99, 96, 88, 100, 117, 100],
    "side_pots.phh": [400, 0, 0, 1500],
    "split_pot_odd_chip.phh": [99, 101, 100],
    # Big-blind antes as in the WSOP 2023 histories; stacks worked out by hand (see each file).
    "wsop_bb_ante_8max_showdown.phh": [
        1230000, 1680000, 915000, 3910000, 1675000, 760000, 2140000, 1490000,
    ],
    "wsop_bb_ante_side_pot.phh": [2400000, 1650000, 3100000, 1400000, 3550000],
    "wsop_bb_ante_heads_up.phh": [19200000, 5200000],
    # Recorded hands of the 2023 WSOP $50,000 Poker Players Championship (Event #43).
    "wsop_bb_ante_2023_43_day5_hand3.phh": [4050000, 8025000, 4550000, 8525000, 4550000],
    "wsop_bb_ante_2023_43_showdown.phh": [7340000, 3775000, 5110000, 8935000, 4545000],
}  # fmt: skip
BB_ANTE_SAMPLES = sorted(name for name in SAMPLES if name.startswith("wsop_bb_ante"))


def pokerkit_finishing_stacks(text: str) -> list[int]:
    """Replay PHH text with pokerkit's HandHistory; every action line must apply as written."""
    history = pk.HandHistory.loads(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. user-defined fields without "_"
        steps = list(history.state_actions)
    state = steps[-1][0]
    assert not state.status
    assert sum(action is not None for _, action in steps) == len(history.actions)
    return list(state.stacks)


def random_table_hands(config: TableConfig, seed: int, hands: int) -> list[str]:
    """Exported PHH of `hands` hands of random legal play at a full-ish table."""
    rng = random.Random(seed)
    table = Table(f"t{seed}", config, seed=seed)
    for number in rng.sample(range(1, config.seats + 1), rng.randint(2, config.seats)):
        buy_in = rng.randint(config.min_buy_in, config.max_buy_in)
        table.sit(number, f"id{number}", f'Name "{number}" \\ Tab\there', buy_in)
    texts = []
    for _ in range(hands):
        for seat in table.seats.values():
            if seat.stack < config.big_blind:
                table.rebuy(seat.player_id, config.min_buy_in - seat.stack)
                table.sit_back(seat.player_id)
        hand = table.start_hand()
        while not hand.is_over:
            legal = hand.legal_actions()
            assert legal is not None
            table.act(legal.seat, random_action(legal, rng))
        assert table.last_record is not None
        texts.append(to_phh(table.last_record))
    return texts


# -- the hand-made samples --------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_sample_histories_replay_to_their_finishing_stacks(name: str) -> None:
    text = (DATA / name).read_text()
    expected = SAMPLES[name]
    assert tomllib.loads(text)["finishing_stacks"] == expected
    assert replay_text(text) == expected
    assert pokerkit_finishing_stacks(text) == expected


def test_sample_heads_up_history_maps_the_blinds_to_the_button() -> None:
    phh = parse_phh((DATA / "heads_up_nl_all_in.phh").read_text())
    assert (phh.config.small_blind, phh.config.big_blind) == (1, 2)
    hand = replay_phh(phh)
    assert hand.button == 2  # the last player in PHH order
    blinds = {e.kind.value: e.seat for e in hand.events if e.kind.value.endswith("blind")}
    assert blinds == {"small_blind": 2, "big_blind": 1}


@pytest.mark.parametrize("name", BB_ANTE_SAMPLES)
def test_big_blind_ante_histories_post_one_ante_from_the_big_blind(name: str) -> None:
    text = (DATA / name).read_text()
    data = tomllib.loads(text)
    phh = parse_phh(text)
    assert phh.config.ante_mode is AnteMode.BIG_BLIND
    assert phh.config.ante == data["antes"][1] > 0
    hand = replay_phh(phh)
    blinds = {e.kind: e.seat for e in hand.events if e.kind.value.endswith("blind")}
    antes = [(e.seat, e.amount) for e in hand.events if e.kind is EventKind.ANTE]
    assert antes == [(blinds[EventKind.BIG_BLIND], phh.config.ante)]
    # Untrimmed: nothing of the ante comes back when it is collected, before the blinds.
    kinds = [e.kind for e in hand.events]
    assert EventKind.RETURN not in kinds[: kinds.index(EventKind.SMALL_BLIND)]
    assert sum(hand.stacks.values()) == sum(phh.starting_stacks)


def test_a_trimmed_big_blind_ante_is_refused() -> None:
    text = (DATA / "wsop_bb_ante_heads_up.phh").read_text()
    trimmed = text.replace("ante_trimming_status = false", "ante_trimming_status = true")
    with pytest.raises(PhhError, match="a big-blind ante needs ante_trimming_status = false"):
        replay_text(trimmed)


# -- export and round trip ------------------------------------------------------------------


def test_export_of_a_finished_hand() -> None:
    table = seated_table(nl(seats=6), {1: 100, 3: 150, 5: 200}, button=5)
    table.start_hand(deck([1, 3, 5], {1: "AcAd", 3: "KcKd", 5: "2h7s"}, "2c5d9hJs3s"))
    play(table, (5, Action.raise_to(6)), (1, Action.raise_to(20)), (3, Action.fold()))
    play(table, (5, Action.call()))
    play(table, (1, Action.bet(30)), (5, Action.fold()))
    record = table.last_record
    assert record is not None
    data = tomllib.loads(to_phh(record))
    assert data["variant"] == "NT"
    assert data["blinds_or_straddles"] == [1, 2, 0]
    assert data["starting_stacks"] == [100, 150, 200]
    assert data["seats"] == [1, 3, 5]
    assert data["_button_seat"] == 5
    assert data["actions"] == [
        "d dh p1 AcAd",
        "d dh p2 KcKd",
        "d dh p3 2h7s",
        "p3 cbr 6",
        "p1 cbr 20",
        "p2 f",
        "p3 cc",
        "d db 2c5d9h",
        "p1 cbr 30",
        "p3 f",
    ]
    assert data["finishing_stacks"] == [122, 148, 180]
    assert replay_text(to_phh(record)) == [122, 148, 180]
    assert pokerkit_finishing_stacks(to_phh(record)) == [122, 148, 180]


@pytest.mark.parametrize(
    "config",
    [
        TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=1, big_blind=2),
        TableConfig(variant=Variant.NO_LIMIT, seats=2, small_blind=5, big_blind=10),
        TableConfig(variant=Variant.NO_LIMIT, seats=9, small_blind=1, big_blind=2, ante=1),
        TableConfig(variant=Variant.NO_LIMIT, seats=10, small_blind=1, big_blind=3, min_buy_in=3),
        TableConfig(variant=Variant.LIMIT, seats=6, small_blind=1, big_blind=2),
        TableConfig(variant=Variant.LIMIT, seats=2, small_blind=2, big_blind=4),
        TableConfig(variant=Variant.LIMIT, seats=8, small_blind=1, big_blind=2, ante=1),
        *(
            TableConfig(
                variant=variant,
                seats=seats,
                small_blind=1,
                big_blind=2,
                ante=ante,
                ante_mode=AnteMode.BIG_BLIND,
                min_buy_in=2,
            )
            for variant, seats, ante in (
                (Variant.NO_LIMIT, 9, 2),
                (Variant.NO_LIMIT, 2, 3),
                (Variant.LIMIT, 6, 2),
            )
        ),
    ],
    ids=lambda c: f"{c.variant.value}-{c.seats}max-ante{c.ante}-{c.ante_mode.value}",
)
def test_exported_hands_replay_the_same_here_and_in_pokerkit(config: TableConfig) -> None:
    for number, text in enumerate(random_table_hands(config, seed=config.seats, hands=25)):
        expected = tomllib.loads(text)["finishing_stacks"]
        assert replay_text(text) == expected, f"hand {number}:\n{text}"
        assert pokerkit_finishing_stacks(text) == expected, f"hand {number}:\n{text}"
        assert parse_phh(text).config.ante_mode is config.ante_mode


@pytest.mark.parametrize("raise_cap", [None, 1, 6])
def test_limit_raise_cap_survives_the_round_trip(raise_cap: int | None) -> None:
    config = TableConfig(
        variant=Variant.LIMIT, seats=4, small_blind=1, big_blind=2, raise_cap=raise_cap
    )
    texts = random_table_hands(config, seed=7, hands=10)
    for text in texts:
        phh = parse_phh(text)
        assert phh.config.raise_cap == raise_cap
        assert replay_text(text) == tomllib.loads(text)["finishing_stacks"]


def test_names_with_quotes_and_control_characters_export_to_valid_toml() -> None:
    table = Table("t", nl(seats=2), seed=1)
    table.sit(1, "a", 'Quote " back\\slash', 100)
    table.sit(2, "b", "new\nline\x7f", 100)
    table.start_hand()
    play(table, (table.button or 0, Action.fold()))
    assert table.last_record is not None
    data = tomllib.loads(to_phh(table.last_record))
    assert sorted(data["players"]) == sorted(['Quote " back\\slash', "new\nline\x7f"])


# -- import errors --------------------------------------------------------------------------

HEADS_UP = (DATA / "heads_up_nl_all_in.phh").read_text()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("variant = ", "not valid TOML"),
        (HEADS_UP.replace('"NT"', '"NS"'), "unsupported variant 'NS'"),
        (HEADS_UP.replace('"NT"', '"F7S"'), "unsupported variant 'F7S'"),
        (HEADS_UP.replace("[200, 150]", "[200]"), "1 players: Showdown plays 2 to 10"),
        (HEADS_UP.replace("[200, 150]", '["a", 150]'), "'starting_stacks' must be a list"),
        (HEADS_UP.replace("[1, 2]", "[1, 2, 4]"), "'blinds_or_straddles' has 3 entries"),
        (HEADS_UP.replace("min_bet = 2", "min_bet = 4"), "a minimum bet other than the big"),
        (HEADS_UP.replace("[0, 0]", "[1, 2]"), "antes must be the same for every player, or a big"),
        (HEADS_UP.replace('"p2 cbr 150"', '"p2 cbr 3"'), r"action 3 \('p2 cbr 3'\): the min"),
        (HEADS_UP.replace('"p1 cc"', '"p2 cc"'), r"action 4 \('p2 cc'\): it is not your turn"),
        (HEADS_UP.replace('"p1 cc"', '"p9 cc"'), "unknown player 'p9'"),
        (HEADS_UP.replace('"p1 cc"', '"p1 xx"'), "unknown action 'xx'"),
        (HEADS_UP[: HEADS_UP.index('  "p1 cc"')] + "]\n", "the history ends before the hand is"),
        (HEADS_UP.replace("p1 AsAd", "p1 As"), "Texas hold'em deals two hole cards"),
        (HEADS_UP.replace('"d db Jh"', '"d db"'), "say which board cards are dealt"),
        (HEADS_UP.replace("KcKh", "AsKh"), "a card is dealt twice"),
        (HEADS_UP.replace("KcKh", "KcK1"), "'K1' is not a card"),
        (HEADS_UP.replace('"Alice", "Bob"', "5").replace("[5]", "5"), "'players' must be a list"),
        (HEADS_UP.replace("[200, 150]", "[200, 0]"), "every player in a hand needs chips"),
    ],
)
def test_unplayable_histories_raise_phh_errors(text: str, message: str) -> None:
    with pytest.raises(PhhError, match=message):
        replay_text(text)


def test_board_dealt_before_the_betting_round_ends_is_refused() -> None:
    text = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ["d dh p1 AsAd", "d dh p2 KcKh", "p2 cc", "d db 2c7d9s", "p1 cc"]
"""
    with pytest.raises(PhhError, match=r"action 4 \('d db 2c7d9s'\): the board is dealt out of"):
        replay_text(text)


def test_mutated_histories_fail_only_with_phh_errors() -> None:
    """Seeded fuzzing: whatever the damage, a history is replayed or refused with a reason."""
    rng = random.Random(2024)
    texts = [(DATA / name).read_text() for name in sorted(SAMPLES)]
    tokens = ["d", "db", "dh", "p1", "p9", "cc", "f", "cbr", "sm", "", "-", "??", "Ah", "3", "-5"]
    tokens += ["1.5", "[", "]", '"', "=", "true", "0", '"NT"', '"FT"', "AhKh", "p2", "p3"]
    outcomes = {"replayed": 0, "refused": 0}
    reasons: list[str] = []
    for _ in range(1500):
        lines = rng.choice(texts).splitlines()
        for _ in range(rng.randint(1, 3)):
            j = rng.randrange(len(lines))
            words = lines[j].replace('"', ' " ').split(" ")
            k = rng.randrange(len(words))
            roll = rng.random()
            if roll < 0.4:
                words[k] = rng.choice(tokens)
            elif roll < 0.7:
                del words[k]
            else:
                words.insert(k, rng.choice(tokens))
            lines[j] = " ".join(words).replace(' " ', '"')
        try:
            replay_text("\n".join(lines))
        except PhhError as error:
            reasons.append(str(error))
            outcomes["refused"] += 1
        else:
            outcomes["replayed"] += 1
    assert all(reasons)
    assert outcomes["refused"] > 100
    assert outcomes["replayed"] > 100


# -- `showdown replay` ---------------------------------------------------------------------------


def test_the_showdown_program_replays_wsop_big_blind_ante_hands_to_their_stacks() -> None:
    """The installed `showdown replay`, in its own process, on the big-blind-ante histories."""
    script = shutil.which("showdown") or str(Path(sys.executable).with_name("showdown"))
    paths = [str(DATA / name) for name in BB_ANTE_SAMPLES]
    result = subprocess.run(
        [script, "replay", "--json", *paths], capture_output=True, text=True, check=False
    )
    assert (result.returncode, result.stderr) == (0, "")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    recorded = [tomllib.loads(Path(path).read_text())["finishing_stacks"] for path in paths]
    assert lines == [
        {"file": path, "finishing_stacks": stacks}
        for path, stacks in zip(paths, recorded, strict=True)
    ]
    assert [line["finishing_stacks"] for line in lines] == [SAMPLES[n] for n in BB_ANTE_SAMPLES]


def test_cli_fails_when_a_hand_does_not_end_with_its_recorded_stacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (DATA / "wsop_bb_ante_heads_up.phh").read_text()
    path = tmp_path / "edited.phh"
    path.write_text(text.replace("[19200000, 5200000]", "[19000000, 5400000]"))
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr()
    assert out.out == ""
    assert "ends with stacks 19200000 5200000, not the recorded 19000000 5400000" in out.err


def test_cli_replays_files_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = []
    for name in sorted(SAMPLES):
        path = tmp_path / name
        path.write_text((DATA / name).read_text())
        paths.append(str(path))
    assert main(["replay", *paths, "--json"]) == 0
    out = capsys.readouterr()
    lines = [json.loads(line) for line in out.out.splitlines()]
    assert lines == [
        {"file": path, "finishing_stacks": SAMPLES[name]}
        for path, name in zip(paths, sorted(SAMPLES), strict=True)
    ]
    assert out.err == ""


def test_cli_reports_the_path_as_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("hand.phh").write_text(HEADS_UP)
    assert main(["replay", "hand.phh", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"file": "hand.phh", "finishing_stacks": [350, 0]}
    assert main(["replay", "./hand.phh"]) == 0
    assert capsys.readouterr().out == "./hand.phh: 350 0\n"


def test_cli_reports_each_bad_file_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "good.phh": HEADS_UP,
        "broken.phh": "variant = \n",
        "stud.phh": HEADS_UP.replace('"NT"', '"F7S"'),
        "short_deck.phh": HEADS_UP.replace('"NT"', '"NS"'),
        "illegal.phh": HEADS_UP.replace('"p2 cbr 150"', '"p2 cbr 3"'),
        "one_card.phh": HEADS_UP.replace("p1 AsAd", "p1 As"),
    }
    paths = {}
    for name, text in files.items():
        paths[name] = str(tmp_path / name)
        Path(paths[name]).write_text(text)
    paths["missing.phh"] = str(tmp_path / "missing.phh")
    assert main(["replay", *paths.values(), "--json"]) == 1
    out = capsys.readouterr()
    results = {Path(r["file"]).name: r for r in map(json.loads, out.out.splitlines())}
    assert list(results) == list(paths)  # one line per file, in order
    assert results["good.phh"]["finishing_stacks"] == [350, 0]
    expected_errors = {
        "broken.phh": "not valid TOML",
        "stud.phh": "unsupported variant 'F7S': only NT (no-limit) and FT (fixed-limit)",
        "short_deck.phh": "unsupported variant 'NS'",
        "illegal.phh": "action 3 ('p2 cbr 3'): the minimum raise is to 4",
        "one_card.phh": "Texas hold'em deals two hole cards",
        "missing.phh": "No such file or directory",
    }
    for name, fragment in expected_errors.items():
        assert "finishing_stacks" not in results[name]
        assert fragment in results[name]["error"], results[name]
        assert f"showdown replay: {paths[name]}: " in out.err
        assert fragment in out.err
    assert len(out.err.splitlines()) == len(expected_errors)


def test_cli_exit_code_is_zero_only_when_every_file_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.phh"
    good.write_text(HEADS_UP)
    bad = tmp_path / "bad.phh"
    bad.write_text(HEADS_UP.replace('"NT"', '"NS"'))
    assert main(["replay", str(good)]) == 0
    assert main(["replay", str(bad)]) == 1
    assert main(["replay", str(good), str(bad)]) == 1
    out = capsys.readouterr()
    assert out.out.splitlines() == [f"{good}: 350 0", f"{good}: 350 0"]
