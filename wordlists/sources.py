"""Where each language's word list comes from, pinned, as data.

Most lists are files of Debian packages; the Dutch one is OpenTaal's own files, committed
under ``wordlists/opentaal/`` (xz-compressed), because Debian ships only OpenTaal's combined
list. A language may name a second source that only *marks* entries (abbreviations: the
Hunspell dictionary of the same project, SCOWL's abbreviation lists); ``wordlists.marks``
reads it. SOURCES.md says why each was chosen; ``python -m wordlists build`` uses exactly
these.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Source:
    """One file of one Debian package (a word list, or a Hunspell ``.dic`` to expand), or a
    file committed under ``wordlists/`` (``bundled``)."""

    package: str  # the Debian package; for a bundled file, its upstream repository
    version: str  # the package version; for a bundled file, the upstream release and commit
    path: str  # inside the package (or under wordlists/); a Hunspell .dic has its .aff beside it
    licence: str  # as the package's copyright file (or the upstream LICENSE) states it
    unmunch: bool = False  # expand the .dic with its .aff into full forms (hunspell-tools)
    skip_flags: str = ""  # affix flags whose forms are not words, removed before expanding
    bundled: bool = False  # committed in this repository, not fetched


@dataclass(frozen=True)
class Marking:
    """A source that marks entries of a language's list as abbreviations, and how it does
    (the ``wordlists.marks`` function named by ``kind``)."""

    kind: str  # "keepcase_letterwords", "scowl_abbreviations", "dotted_entries", "lemma_forms"
    source: Source


@dataclass(frozen=True)
class Language:
    """A language's list: the edition whose tiles it is keyed by, and its sources (united)."""

    code: str
    edition: str
    sources: tuple[Source, ...]
    name: str  # the list as players name it: "OpenTaal", "SCOWL"
    release: str  # its release as players name it: "2.20" (OpenTaal 2.20.23), "2020.12"
    size: int | None = None  # SCOWL's size (how rare a word may be), where the list has one
    marking: Marking | None = None  # where the source's own project marks abbreviations
    # German capitalises every noun, so a capital cannot mark a proper name there.
    nouns_capitalised: bool = False


UNMUNCH = Source(
    package="hunspell-tools",
    version="1.7.1-1",
    path="usr/bin/unmunch",
    licence="GPL-2+ or LGPL-2.1+ or MPL-1.1 (Hunspell); a build tool, not shipped",
)

_LIBREOFFICE = "LibreOffice dictionaries"

#: OpenTaal's repository, and the commit its files under wordlists/opentaal/ were taken from.
OPENTAAL = "OpenTaal/opentaal-wordlist"
OPENTAAL_RELEASE = "2.20.23 (commit b250510dda431785f962019167d1415198ff3905)"
OPENTAAL_LICENCE = "BSD-3-Clause or CC-BY-3.0 (Stichting OpenTaal)"

LANGUAGES: dict[str, Language] = {
    lang.code: lang
    for lang in (
        Language(
            "nl",
            "nl",
            # WS-32: OpenTaal's approved base words plus its inflections, the two files the
            # Woordstrijd rules page names; the unapproved base words (names, toponyms,
            # compounds with a name) are left out.
            (
                Source(
                    OPENTAAL,
                    OPENTAAL_RELEASE,
                    "opentaal/basiswoorden-gekeurd.txt.xz",
                    OPENTAAL_LICENCE,
                    bundled=True,
                ),
                Source(
                    OPENTAAL,
                    OPENTAAL_RELEASE,
                    "opentaal/flexies-ongekeurd.txt.xz",
                    OPENTAAL_LICENCE,
                    bundled=True,
                ),
            ),
            name="OpenTaal",
            release="2.20",
            marking=Marking(
                "keepcase_letterwords",
                Source(
                    "hunspell-nl",
                    "2:2.20.19-2",
                    "usr/share/hunspell/nl.dic",
                    "BSD-3-Clause or CC-BY-3.0 (OpenTaal)",
                ),
            ),
        ),
        Language(
            "en",
            "en",
            (
                Source(
                    "wamerican-huge",
                    "2020.12.07-2",
                    "usr/share/dict/american-english-huge",
                    "SCOWL permissive licence (Kevin Atkinson et al.)",
                ),
                Source(
                    "wbritish-huge",
                    "2020.12.07-2",
                    "usr/share/dict/british-english-huge",
                    "SCOWL permissive licence (Kevin Atkinson et al.)",
                ),
            ),
            name="SCOWL",
            release="2020.12",
            size=70,
            marking=Marking(
                "scowl_abbreviations",
                Source(
                    "scowl",
                    "2020.12.07-2",
                    "usr/share/dict/scowl",
                    "SCOWL permissive licence (Kevin Atkinson et al.)",
                ),
            ),
        ),
        Language(
            "fr",
            "fr",
            (
                Source(
                    "wfrench",
                    "1.2.7-2",
                    "usr/share/dict/french",
                    "GPL-2+ (Paul Leyland and contributors)",
                ),
            ),
            name="wfrench",
            release="1.2.7",
        ),
        Language(
            "de",
            "de",
            (
                Source(
                    "wngerman",
                    "20161207-11",
                    "usr/share/dict/ngerman",
                    "GPL-2+ (igerman98, Björn Jacke)",
                ),
            ),
            name="igerman98",
            release="2016-12-07",
            marking=Marking(
                "dotted_entries",
                Source(
                    "hunspell-de-de",
                    "20161207-11",
                    "usr/share/hunspell/de_DE.dic",
                    "GPL-2+ (igerman98, Björn Jacke)",
                ),
            ),
            nouns_capitalised=True,
        ),
        Language(
            "es",
            "es",
            (
                Source(
                    "hunspell-es",
                    "1:7.5.0-1",
                    "usr/share/hunspell/es_ES.dic",
                    f"GPL-3+ or LGPL-3+ or MPL-1.1+ (RLA-ES, Santiago Bosio; {_LIBREOFFICE})",
                    unmunch=True,
                ),
            ),
            name="RLA-ES",
            release="LibreOffice 7.5",
        ),
        Language(
            "it",
            "it",
            (
                Source(
                    "hunspell-it",
                    "1:7.5.0-1",
                    "usr/share/hunspell/it_IT.dic",
                    f"GPL-3 (LibreItalia, Marina Latini and others; {_LIBREOFFICE})",
                    unmunch=True,
                    skip_flags="£$",  # they build Roman numerals (MCMLII) from c, d, l, m, x
                ),
            ),
            name="LibreItalia",
            release="LibreOffice 7.5",
        ),
        Language(
            "pl",
            "pl",
            (
                Source(
                    "wpolish",
                    "20220301-1",
                    "usr/share/dict/polish",
                    "GPL-2 or LGPL-2.1 or MPL-1.1 or Apache-2.0 or CC-BY-4.0 (SJP.PL)",
                ),
            ),
            name="SJP.PL",
            release="2022-03-01",
            marking=Marking(
                "lemma_forms",
                Source(
                    "hunspell-pl",
                    "1:7.5.0-1",
                    "usr/share/hunspell/pl_PL.dic",
                    "GPL-2 or LGPL-2.1 or MPL-1.1 or Apache-2.0 or CC-BY-4.0 (SJP.PL)",
                    unmunch=True,
                ),
            ),
        ),
    )
}
