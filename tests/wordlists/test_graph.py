"""The word lists as graphs of tiles: the walk, the conversion, caching, a club's own list."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import editions
import wordlists
from wordlists import lexicon as lexicon_module
from wordlists.graph import Graph
from wordlists.keys import Keyer
from wordlists.lexicon import WordListError, load_text, read_words, use

NL = editions.get("nl")
ES = editions.get("es")


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("TILESTREAM_CACHE", str(folder))
    return folder


def test_graph_walks_by_tile_and_knows_where_words_end() -> None:
    graph = Graph.from_words(NL, ["plank", "planken", "plan", "kraan"])
    plan = graph.walk("PLAN")
    assert plan is not None and graph.is_word(plan)
    assert sorted(graph.children(plan)) == ["K"]
    assert graph.child(plan, "Q") is None
    assert not graph.is_word(graph.walk("PLA"))  # type: ignore[arg-type]
    assert graph.walk("PLANQ") is None
    assert sorted("".join(w) for w in graph) == ["KRAAN", "PLAN", "PLANK", "PLANKEN"]


def test_graph_keeps_the_spanish_digraphs_as_one_tile() -> None:
    graph = Graph.from_words(ES, ["chorro", "coro", "llama"])
    assert "CH" in graph.letters and "RR" in graph.letters
    assert graph.contains(["CH", "O", "RR", "O"])
    assert not graph.contains(["C", "H", "O", "RR", "O"])
    assert {tuple(w) for w in graph} == {
        ("CH", "O", "RR", "O"),
        ("C", "O", "R", "O"),
        ("LL", "A", "M", "A"),
    }


@settings(max_examples=50, deadline=None)
@given(st.sets(st.text("ABCŁŻĘ", min_size=2, max_size=6), min_size=1, max_size=30))
def test_graph_spells_exactly_the_words_it_was_made_of(words: set[str]) -> None:
    pl = editions.get("pl")
    graph = Graph.from_words(pl, words)
    assert {"".join(w) for w in graph} == words
    assert all(graph.contains(pl.letters(w)) for w in words)


@pytest.mark.parametrize("language", ["nl", "es"])
def test_a_committed_list_as_a_graph_agrees_with_its_dawg(language: str) -> None:
    lexicon = wordlists.get(language)
    graph = lexicon.graph
    codes = Keyer(lexicon.edition).codes
    faces = {code: face for face, code in codes.items()}
    for key in list(lexicon.keys())[::997]:
        assert graph.contains([faces.get(c, c) for c in key])
    assert not graph.contains("QQQQ")


def test_a_committed_list_graph_is_cached_by_the_lists_sha256(cache: Path) -> None:
    wordlists.get.cache_clear()
    first = wordlists.get("es").graph
    (saved,) = (cache / "graphs").iterdir()
    assert saved.name.startswith("es-")
    wordlists.get.cache_clear()
    again = wordlists.get("es").graph
    assert again.masks == first.masks and again.targets == first.targets
    wordlists.get.cache_clear()


def test_a_stale_or_broken_cache_is_rebuilt(tmp_path: Path) -> None:
    graph = Graph.from_words(NL, ["plank", "kraan"])
    path = tmp_path / "x.graph"
    graph.save(path, "abc")
    assert Graph.load(path, "abc") is not None
    assert Graph.load(path, "other") is None
    path.write_bytes(b"nonsense")
    assert Graph.load(path, "abc") is None


def test_read_words_normalises_like_the_calculator() -> None:
    keys, dropped = read_words(
        NL, ["Ĳsje", "  CAFÉ ", "", "# a comment", "zo'n", "3D", "a", "x" * 16, "ideeën"]
    )
    assert keys == {"IJSJE", "CAFE", "IDEEEN"}
    assert dropped == {"not_letters": 2, "too_short": 1, "too_long": 1}


def test_a_club_list_is_built_beside_the_file_and_judges_words(tmp_path: Path) -> None:
    source = tmp_path / "club.txt"
    source.write_text("PLANK\nkraan\nchorro\n", encoding="utf-8")
    lexicon = load_text(source, "nl")
    assert lexicon.contains("plank") and lexicon.contains("KRAAN")
    assert not lexicon.contains("gelopen")
    assert lexicon.graph.contains("PLANK")
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "club.txt",
        "club.txt.nl.dawg",
        "club.txt.nl.graph",
        "club.txt.nl.json",
    ]
    assert lexicon.record["kept"] == 3
    assert lexicon.source == "club.txt (3 words)" and len(lexicon) == 3
    assert (lexicon.name, lexicon.release, lexicon.size) == ("club.txt", None, None)


def test_a_club_list_is_reused_until_the_file_changes(tmp_path: Path) -> None:
    source = tmp_path / "club.txt"
    source.write_text("PLANK\n", encoding="utf-8")
    load_text(source, "nl")
    built = tmp_path / "club.txt.nl.dawg"
    stamp = built.stat().st_mtime_ns
    assert load_text(source, "nl").contains("plank")
    assert built.stat().st_mtime_ns == stamp  # not rebuilt
    source.write_text("KRAAN\n", encoding="utf-8")
    changed = load_text(source, "nl")
    assert changed.contains("kraan") and not changed.contains("plank")
    assert changed.graph.contains("KRAAN") and not changed.graph.contains("PLANK")


def test_a_club_list_keys_spanish_digraphs(tmp_path: Path) -> None:
    source = tmp_path / "es.txt"
    source.write_text("chorro\n", encoding="utf-8")
    lexicon = load_text(source, "es")
    assert lexicon.graph.contains(["CH", "O", "RR", "O"])
    assert lexicon.contains("CHORRO") and not lexicon.contains("c·horro")


def test_a_club_list_in_a_read_only_folder_goes_to_the_cache(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "list.txt").write_text("plank\n", encoding="utf-8")
    monkeypatch.setattr(lexicon_module.os, "access", lambda path, mode: False)
    assert load_text(folder / "list.txt", "nl").contains("plank")
    assert [p.name for p in folder.iterdir()] == ["list.txt"]
    assert list((cache / "lists").rglob("list.txt.nl.dawg"))


def test_a_club_list_without_words_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "empty.txt"
    source.write_text("# nothing\n3D\n", encoding="utf-8")
    with pytest.raises(WordListError) as refused:
        load_text(source, "nl")
    assert refused.value.code == "no_words"


def test_use_makes_get_judge_by_a_club_list(tmp_path: Path) -> None:
    source = tmp_path / "club.txt"
    source.write_text("qwxyz\n", encoding="utf-8")
    try:
        use("woordstrijd", source)  # an edition: its language's list
        assert wordlists.get("nl").contains("qwxyz")
        assert not wordlists.get("woordstrijd").contains("gelopen")
    finally:
        use("nl", None)
    assert wordlists.get("nl").contains("gelopen")


def test_graph_module_does_not_depend_on_the_lexicon():
    # The dependency is one-way: wordlists.lexicon uses wordlists.graph.
    import ast

    tree = ast.parse(Path(graph_module_file()).read_text(encoding="utf-8"))
    imported = {
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert "wordlists.lexicon" not in imported
    assert "lexicon" not in {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def graph_module_file() -> str:
    from wordlists import graph

    return graph.__file__
