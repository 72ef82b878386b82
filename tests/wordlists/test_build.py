"""The build's filters and records, on tiny fixture lists (no download)."""

import pytest

import editions
from wordlists import build, records
from wordlists.__main__ import main
from wordlists.keys import Keyer
from wordlists.sources import LANGUAGES, Language


@pytest.mark.parametrize(
    ("lang", "entry", "reason", "key"),
    [
        ("nl", "loopt", "kept", "LOOPT"),
        ("nl", "ĳsje", "kept", "IJSJE"),
        ("nl", "ideeën", "kept", "IDEEEN"),
        ("nl", "ad fundum", "space", ""),
        ("nl", "DNA-profielen", "hyphen", ""),
        ("nl", "06-nummer", "hyphen", ""),
        ("nl", "3D", "digit", ""),
        ("nl", "a.u.b.", "abbreviation", ""),
        ("nl", "NAVO", "abbreviation", ""),
        ("nl", "kWh", "abbreviation", ""),
        ("nl", "zo'n", "apostrophe", ""),
        ("it", "Nell'Impelarcelo", "apostrophe", ""),
        ("nl", "rock&roll", "symbol", ""),
        ("nl", "R&D", "abbreviation", ""),
        ("nl", "Nelis", "proper_name", ""),
        ("nl", "µm", "not_latin", ""),
        ("nl", "a", "too_short", ""),
        ("nl", "ĳ", "kept", "IJ"),  # two tiles (WS-26)
        ("nl", "arbeidsongeschiktheidsverzekering", "too_long", ""),
        ("de", "Straße", "kept", "STRASSE"),
        ("de", "GmbH", "abbreviation", ""),
        ("it", "città", "kept", "CITTA"),
        ("it", "kiwi", "kept", "KIWI"),  # K and W the set lacks: playable with blanks
        ("pl", "źdźbło", "kept", "ŹDŹBŁO"),
        ("es", "chorro", "kept", "\ue000O\ue002O"),
    ],
)
def test_classify_keeps_or_names_the_reason(lang, entry, reason, key):
    language = LANGUAGES[lang]
    keyer = Keyer(editions.get(language.edition))
    assert build.classify(entry, keyer, language.nouns_capitalised) == (reason, key)


def test_classify_fifteen_tiles_is_the_limit():
    keyer = Keyer(editions.get("es"))
    # LL counts as one tile, so 16 letters are 15 tiles.
    assert build.classify("ll" + "a" * 14, keyer) == ("kept", "\ue001" + "A" * 14)
    assert build.classify("ll" + "a" * 15, keyer) == ("too_long", "")


FIXTURE = """\
loopt
gelopen
mooiste
Loopt
café
cafe
Amsterdam
NAVO
a.u.b.
zo'n
ad hoc
e-mail
x
"""


def test_filter_entries_counts_every_entry_once():
    keys, report = build.filter_entries(LANGUAGES["nl"], FIXTURE.splitlines())
    assert keys == {"LOOPT", "GELOPEN", "MOOISTE", "CAFE"}
    assert report.raw == 13
    assert report.kept == 4
    assert dict(report.dropped) == {
        "proper_name": 2,  # Loopt, Amsterdam
        "duplicate": 1,  # cafe after café
        "abbreviation": 2,
        "apostrophe": 1,
        "space": 1,
        "hyphen": 1,
        "too_short": 1,
    }
    assert report.raw == report.kept + sum(report.dropped.values())


def test_filter_entries_keeps_german_nouns():
    german = Language("de", "de", (), "igerman98", "2016-12-07", nouns_capitalised=True)
    keys, report = build.filter_entries(german, ["Haus", "Häuser", "essen", "Essen", "NATO"])
    assert keys == {"HAUS", "HÄUSER", "ESSEN"}
    assert dict(report.dropped) == {"duplicate": 1, "abbreviation": 1}


def test_without_flags_takes_flags_off_entries(tmp_path):
    dic = tmp_path / "it_IT.dic"
    dic.write_text("3\nc/£$\ncasa/Sp\nxx/£$q\n", encoding="utf-8")
    copy = build._without_flags(dic, "£$", "utf-8")
    assert copy.read_text(encoding="utf-8") == "3\nc/\ncasa/Sp\nxx/q\n"


COPYRIGHT = """\
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: libreoffice

Files: dictionaries/af_ZA/*
Copyright: someone
License: LGPL-2.1+

Files: dictionaries/es/*
Copyright: Santiago Bosio
License: GPL-3+ or LGPL-3+ or MPL-1.1+

License: GPL-3+
 The GPL text.

License: LGPL-2.1+
 The LGPL 2.1 text.

License: MPL-1.1+
 The MPL text.
"""


def test_stanzas_for_keeps_one_dictionary_and_its_licences():
    text = records.stanzas_for(COPYRIGHT, "es")
    assert "Santiago Bosio" in text
    assert "GPL text" in text and "MPL text" in text
    assert "af_ZA" not in text and "LGPL 2.1 text" not in text
    assert text.startswith("Format:")


def test_report_table_has_a_row_per_committed_list():
    table = records.report_table()
    for lang in LANGUAGES:
        assert f"| {lang} | `" in table


def test_sources_md_holds_the_current_report():
    text = records.SOURCES_MD.read_text(encoding="utf-8")
    assert records.report_table() in text


def test_main_refuses_an_unknown_language(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["build", "xx"])
    assert exit_info.value.code == 2
    assert "known: nl en fr de es it pl" in capsys.readouterr().err
