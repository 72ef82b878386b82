"""Where each language's word list comes from: Debian packages, pinned, as data.

SOURCES.md says why each was chosen; ``python -m wordlists build`` fetches exactly these.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Source:
    """One file of one Debian package: a word list, or a Hunspell ``.dic`` to expand."""

    package: str
    version: str
    path: str  # inside the package; for a Hunspell dictionary the .dic, its .aff beside it
    licence: str  # as the package's copyright file states it
    unmunch: bool = False  # expand the .dic with its .aff into full forms (hunspell-tools)
    skip_flags: str = ""  # affix flags whose forms are not words, removed before expanding


@dataclass(frozen=True)
class Language:
    """A language's list: the edition whose tiles it is keyed by, and its sources (united)."""

    code: str
    edition: str
    sources: tuple[Source, ...]
    # German capitalises every noun, so a capital cannot mark a proper name there.
    nouns_capitalised: bool = False


UNMUNCH = Source(
    package="hunspell-tools",
    version="1.7.1-1",
    path="usr/bin/unmunch",
    licence="GPL-2+ or LGPL-2.1+ or MPL-1.1 (Hunspell); a build tool, not shipped",
)

_LIBREOFFICE = "LibreOffice dictionaries"

LANGUAGES: dict[str, Language] = {
    lang.code: lang
    for lang in (
        Language(
            "nl",
            "nl",
            (
                Source(
                    "wdutch",
                    "1:2.20.19-2",
                    "usr/share/dict/dutch",
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
        ),
    )
}
