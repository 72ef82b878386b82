"""``tilestream top``: the best moves of a position, as text and as JSON, and its errors."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import editions
import wordlists
from rules import Board
from server.cli.best_moves import use_wordlists
from server.cli.main import main
from tests.server.serving import ServerProcess

PLANK_KRAAN = """
...............
...............
...............
...............
...............
.....K.........
.....R.........
...PLANK.......
.....A.........
.....N.........
...............
...............
...............
...............
...............
"""


@pytest.fixture
def board(tmp_path: Path) -> Path:
    path = tmp_path / "board.txt"
    path.write_text(PLANK_KRAAN, encoding="utf-8")
    return path


@pytest.fixture
def club(tmp_path: Path) -> Path:
    path = tmp_path / "club.txt"
    path.write_text("PLANKS\nKRAANS\nSNAP\n", encoding="utf-8")
    return path


def top(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["top", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_top_prints_the_best_moves_with_their_formulas(
    capsys: pytest.CaptureFixture[str], board: Path, club: Path
) -> None:
    status, out, _ = top(capsys, "nl", "--board", str(board), "--rack", "SP", "--words", str(club))
    assert status == 0
    assert out.splitlines() == [
        "2 moves; the best 2:",
        "H4 across PLANKS (S): 13",
        "  PLANKS          3 + 3 + 1 + 1 + 3 + 2 = 13",  # the 2L under P is old now
        "F6 down KRAANS (S): 10",
        "  KRAANS          3 + 2 + 1 + 1 + 1 + 2 = 10",
    ]


def test_top_json_gives_moves_and_count(capsys: pytest.CaptureFixture[str], board: Path) -> None:
    status, out, _ = top(
        capsys, "nl", "--board", str(board), "--rack", "ETS", "--count", "2", "--json"
    )
    assert status == 0
    answer = json.loads(out)
    assert answer["count"] == 2 and answer["total"] > 2
    first = answer["moves"][0]
    assert set(first) >= {"start", "direction", "word", "score", "formula", "tiles", "words"}
    nl = editions.get("nl")
    position = Board.from_rows(nl, PLANK_KRAAN)
    play = position.place(first["start"], first["direction"], first["tiles"])
    result = position.score(play)
    assert result.total == first["score"]
    assert first["formula"].startswith(f"{result.words[0].word}: {result.words[0].formula}")
    assert wordlists.get("nl").contains(first["word"])
    assert answer["moves"][0]["score"] >= answer["moves"][1]["score"]


def test_top_reads_the_board_from_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(["." * 15] * 15)))
    status, out, _ = top(capsys, "nl", "--board", "-", "--rack", "PLANK", "--json")
    assert status == 0
    assert {"start": "H4", "direction": "across", "word": "PLANK", "score": 28}.items() <= next(
        m for m in json.loads(out)["moves"] if m["word"] == "PLANK" and m["start"] == "H4"
    ).items()


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["xx", "--rack", "AB"], "unknown_edition"),
        (["pl-literaki", "--rack", "AB"], "no_board"),
        (["nl", "--rack", "A1"], "bad_rack"),
        (["nl", "--rack", "ABCDEFGH"], "bad_rack"),
        (["it", "--rack", "KA"], "bad_rack"),
        (["nl", "--rack", "AB", "--words", "/no/such/list.txt"], "bad_words"),
    ],
)
def test_top_refuses_bad_input_in_one_line_with_a_code(
    capsys: pytest.CaptureFixture[str], board: Path, args: list[str], code: str
) -> None:
    edition, *rest = args
    status, out, err = top(capsys, edition, "--board", str(board), *rest)
    assert status == 1 and out == ""
    assert len(err.splitlines()) == 1 and err.rstrip().endswith(f"[{code}]")


@pytest.mark.parametrize(
    "text",
    ["PLANK\n", "." * 15 + "\n" + "1" * 15 + "\n" * 14, "[XX]" + "." * 14 + "\n" * 15],
)
def test_top_refuses_a_bad_board_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text, encoding="utf-8")
    status, _, err = top(capsys, "nl", "--board", str(path), "--rack", "AB")
    assert status == 1
    assert err.startswith(f"error: {path}: ") and err.rstrip().endswith("[bad_board]")


def test_top_refuses_a_board_file_it_cannot_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, _, err = top(capsys, "nl", "--board", str(tmp_path / "none.txt"), "--rack", "AB")
    assert status == 1 and err.rstrip().endswith("[bad_board]")
    (tmp_path / "latin1.txt").write_bytes("é".encode("latin-1") * 15)
    status, _, err = top(capsys, "nl", "--board", str(tmp_path / "latin1.txt"), "--rack", "AB")
    assert status == 1 and "not UTF-8" in err


def test_serve_wordlist_option_loads_the_list_or_says_why_not(
    capsys: pytest.CaptureFixture[str], club: Path
) -> None:
    try:
        assert use_wordlists([f"nl={club}"]) == 0
        assert wordlists.get("nl").contains("snap")
        assert not wordlists.get("nl").contains("gelopen")
    finally:
        wordlists.lexicon.use("nl", None)
    assert use_wordlists(["nl"]) == 1
    assert capsys.readouterr().err.rstrip().endswith("[bad_wordlist_option]")
    assert use_wordlists(["xx=list.txt"]) == 1
    assert capsys.readouterr().err.rstrip().endswith("[no_word_list]")
    assert use_wordlists(["nl=/no/such/list.txt"]) == 1
    assert capsys.readouterr().err.rstrip().endswith("[bad_words]")


def test_serve_refuses_a_bad_wordlist_before_it_starts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--wordlist", "nl=/no/such/list.txt", "--port", "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("tilestream: /no/such/list.txt: ") and err.rstrip().endswith(
        "[bad_words]"
    )


def test_a_server_given_a_club_list_judges_by_it_and_says_which_list(
    club: Path, tmp_path: Path
) -> None:
    with ServerProcess(tmp_path / "data", options=("--wordlist", f"woordstrijd={club}")) as server:
        api = server.api()
        listed = {e["code"]: e["word_list"] for e in api.get("/api/catalog").json()["editions"]}
        club_list = {"name": "club.txt", "release": None, "size": None, "words": 3}
        assert listed["nl"] == listed["woordstrijd"] == club_list  # one list per language
        assert listed["en"] == {"name": "SCOWL", "release": "2020.12", "size": 70,
                                "words": len(wordlists.get("en"))}  # fmt: skip
        assert listed["pl-literaki"]["name"] == "SJP.PL"
        move = {"edition": "nl", "move": {"typed": [[["S"], ["N"], ["A"], ["P"]]]}, "check": True}
        assert api.post("/api/score", move).json()["words"] == ["in_list"]
        move["move"] = {"typed": [[["L"], ["O"], ["O"], ["P"], ["T"]]]}  # in ours, not theirs
        assert api.post("/api/score", move).json()["words"] == ["not_in_list"]


def test_compile_leaves_the_generator_compiled_for_the_next_process(tmp_path: Path) -> None:
    # The install runs it; a later process then loads the machine code from numba's cache
    # (half a second) instead of compiling it again (some 20 seconds).
    assert main(["compile"]) == 0
    script = (
        "import editions; from rules import Board; from rules.movegen.moves import generate;"
        " from rules.movegen.kernel import search; from wordlists.graph import Graph;"
        " e = editions.get('nl'); generate(Board.empty(e), 'KAT?', Graph.from_words(e, ['KAT']));"
        " print(sum(search.stats.cache_hits.values()), sum(search.stats.cache_misses.values()))"
    )
    hits, misses = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True, cwd=tmp_path
    ).stdout.split()
    assert (int(hits), int(misses)) == (1, 0)
