"""What the build leaves beside the data: licence texts and the report in SOURCES.md."""

import json
import re
import shutil
from pathlib import Path

from wordlists.sources import Language

HERE = Path(__file__).parent
LICENSES = HERE / "licenses"
SOURCES_MD = HERE / "SOURCES.md"
COMMON_LICENSES = Path("/usr/share/common-licenses")  # Debian's full licence texts
REPORT_START = "<!-- build report: written by `python -m wordlists build` -->"
REPORT_END = "<!-- end of build report -->"


def copy_licences(language: Language, workdir: Path) -> None:
    """Copy each source package's copyright file, and the full licence texts it points to.

    A bundled source's licence is committed beside it (``opentaal/LICENSE.txt``).
    """
    LICENSES.mkdir(exist_ok=True)
    for source in language.sources:
        if source.bundled:
            continue
        path = workdir / source.package / "usr/share/doc" / source.package / "copyright"
        copyright_text = path.read_text(encoding="utf-8")
        if "Files: dictionaries/" in copyright_text:  # LibreOffice's, for ~100 languages
            stem = Path(source.path).stem  # it_IT lives in dictionaries/it_IT, es_ES in es
            folder = stem if f"dictionaries/{stem}/" in copyright_text else stem.split("_")[0]
            copyright_text = stanzas_for(copyright_text, folder)
        (LICENSES / f"{source.package}.copyright").write_text(copyright_text, encoding="utf-8")
        for name in re.findall(r"common-licenses/([\w+-]+(?:\.\d+)*)", copyright_text):
            if (COMMON_LICENSES / name).is_file():
                shutil.copyfile(COMMON_LICENSES / name, LICENSES / name)


def stanzas_for(text: str, folder: str) -> str:
    """The parts of a machine-readable copyright file that cover ``dictionaries/{folder}``.

    Keeps the header, the ``Files: dictionaries/{folder}/*`` stanzas and the licence
    paragraphs they name.
    """
    paragraphs = re.split(r"\n\s*\n", text.strip())
    wanted = [
        p
        for p in paragraphs
        if p.startswith("Files:") and f"dictionaries/{folder}/*" in p.split("\n", 1)[0]
    ]
    licences = {
        name.strip()
        for p in wanted
        for line in p.splitlines()
        if line.startswith("License:")
        for name in re.split(r"\bor\b|\band\b|,", line.removeprefix("License:"))
    }
    standalone = [
        p
        for p in paragraphs
        if p.startswith("License:")
        and p.splitlines()[0].removeprefix("License:").strip() in licences
    ]
    return "\n\n".join([paragraphs[0], *wanted, *standalone]) + "\n"


def report_table() -> str:
    """The per-language build report, as Markdown tables, from ``data/*.json``: every
    reason's count, then the abbreviation rules' counts with examples."""
    rows = [
        "| list | sources (Debian package = version, or a committed file) | raw entries | kept"
        " | dropped by reason |",
        "| --- | --- | ---: | ---: | --- |",
    ]
    rules = [
        "",
        "Abbreviations, units, acronyms and symbols (`wordlists/marks.py`), with the first"
        " examples by length:",
        "",
        "| list | marked by the source's project | listed (`abbreviations.toml`) | no vowel"
        " | kept by exception |",
        "| --- | --- | --- | --- | --- |",
    ]
    for path in sorted((HERE / "data").glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        sources = "<br>".join(_source(s) for s in record["sources"])
        dropped = ", ".join(f"{reason} {n:,}" for reason, n in record["dropped"].items())
        rows.append(
            f"| {record['language']} | {sources} | {record['raw']:,} | {record['kept']:,} "
            f"| {dropped} |"
        )
        cells = [
            _counted(record["dropped"].get(rule, 0), record["examples"].get(rule, []))
            for rule in ("marked_abbreviation", "listed_abbreviation", "no_vowel")
        ]
        kept = record.get("kept_by_exception", [])
        cells.append(_counted(len(kept), kept))
        rules.append(f"| {record['language']} | {' | '.join(cells)} |")
    return "\n".join([*rows, *rules])


def _source(source: dict[str, str]) -> str:
    if source.get("bundled"):
        return f"`{source['path']}` from {source['package']} {source['version']}"
    expanded = f" (+ `{source['expanded_with']}`)" if "expanded_with" in source else ""
    return f"`{source['package']}` = {source['version']}{expanded}"


def _counted(count: int, examples: list[str]) -> str:
    if not count:
        return "–"
    shown = examples[:8]
    more = ", …" if count > len(shown) else ""
    return f"{count:,}: {', '.join(shown)}{more}"


def write_sources_report() -> None:
    """Replace the report between the markers in SOURCES.md with the current table."""
    text = SOURCES_MD.read_text(encoding="utf-8")
    start = text.index(REPORT_START) + len(REPORT_START)
    end = text.index(REPORT_END)
    SOURCES_MD.write_text(f"{text[:start]}\n{report_table()}\n{text[end:]}", encoding="utf-8")
