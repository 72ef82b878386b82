"""Word lists: file size, load time, resident memory and lookups per second, per language.

Run: ``python -m bench.lexicon [LANG ...]``. The baseline, measured in the same run, is a
Python ``set`` of the very same keys, loaded from a plain text file of them. Loads are
timed in fresh subprocesses (the median of several), each reading VmRSS from
/proc/self/status before and after, so the memory figure is what loading adds. Lookups
are a 50/50 mix of words in the list (typed in lower case, as a player would) and the
same words with one letter changed, mostly absent.
"""

import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sized
from pathlib import Path
from typing import Any

import wordlists
from bench.timing import Figures, measure
from editions.alphabet import SEPARATOR
from wordlists.keys import Keyer
from wordlists.lexicon import DATA, LANGUAGES

LOADS = 5  # fresh processes per load measurement
QUERIES = 1000  # words per timed batch


def rss_kib() -> int:
    """This process's resident memory, in KiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def child(kind: str, lang: str, words_file: str) -> None:
    """In a fresh process: load once, print load seconds and KiB added as JSON."""
    import wordlists.lexicon  # imports (dawg, editions) are not part of loading

    before = rss_kib()
    start = time.perf_counter()
    if kind == "dawg":
        loaded: Sized = wordlists.lexicon.get(lang)
    else:
        loaded = set(Path(words_file).read_text(encoding="utf-8").split("\n"))
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "kib": rss_kib() - before, "n": len(loaded)}))


def load_figures(kind: str, lang: str, words_file: Path) -> tuple[float, float]:
    """Median load milliseconds and median MiB added, over LOADS fresh processes."""
    runs = []
    for _ in range(LOADS):
        out = subprocess.run(
            [sys.executable, "-m", "bench.lexicon", "--child", kind, lang, str(words_file)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        runs.append(json.loads(out))
    return (
        statistics.median(r["seconds"] for r in runs) * 1000,
        statistics.median(r["kib"] for r in runs) / 1024,
    )


def queries(keys: list[str], rng: random.Random) -> list[str]:
    """Half words of the list, half the same words with one letter changed."""
    present = rng.sample(keys, QUERIES // 2)
    letters = sorted({c for k in present for c in k})
    absent = []
    for key in present:
        i = rng.randrange(len(key))
        absent.append(key[:i] + rng.choice(letters) + key[i + 1 :])
    mixed = present + absent
    rng.shuffle(mixed)
    return mixed


def typed(keyer: Keyer, key: str) -> str:
    """A key as a player types it: lower case, digraph tiles spelt out (split if need be)."""
    faces = {code: face for face, code in keyer.codes.items()}
    letters = [faces.get(c, c).lower() for c in key]
    text = "".join(letters)
    return text if keyer.key(text) == key else SEPARATOR.join(letters)


def per_lookup(name: str, batch: Callable[[], object], n: int) -> Figures:
    """Time ``batch`` (n lookups per call) and express the samples per lookup."""
    figures = measure(name, batch, calls=20, samples=15)
    return Figures(name, [s / n for s in figures.samples])


def measure_language(lang: str, rng: random.Random) -> tuple[Any, ...]:
    """One table row: sizes, loads, memory and lookups for ``lang`` and its set baseline."""
    lexicon = wordlists.get(lang)
    keys = list(lexicon.keys())
    keyer = lexicon._keyer
    texts = [typed(keyer, k) for k in queries(keys, rng)]
    with tempfile.NamedTemporaryFile("w", suffix=".txt", encoding="utf-8") as words_file:
        words_file.write("\n".join(keys))
        words_file.flush()
        dawg_ms, dawg_mib = load_figures("dawg", lang, Path(words_file.name))
        set_ms, set_mib = load_figures("set", lang, Path(words_file.name))
    baseline = set(keys)
    contains = lexicon.contains
    ours = per_lookup("dawg", lambda: [contains(t) for t in texts], len(texts))
    theirs = per_lookup("set", lambda: [keyer.key(t) in baseline for t in texts], len(texts))
    keys_asked = [keyer.key(t) for t in texts]
    table = lexicon._dawg
    raw = per_lookup("dawg key", lambda: [k in table for k in keys_asked], len(texts))
    raw_set = per_lookup("set key", lambda: [k in baseline for k in keys_asked], len(texts))
    found = sum(map(contains, texts))
    assert found == sum(keyer.key(t) in baseline for t in texts), "the two must agree"
    size = (DATA / f"{lang}.dawg").stat().st_size / 2**20
    return (
        lang,
        len(keys),
        size,
        dawg_ms,
        set_ms,
        dawg_mib,
        set_mib,
        ours,
        theirs,
        raw,
        raw_set,
        found / len(texts),
    )


def main(argv: list[str]) -> None:
    """Measure every language (or those named) and print one table."""
    if argv[:1] == ["--child"]:
        child(*argv[1:])
        return
    rng = random.Random(2024)
    rows = [measure_language(lang, rng) for lang in argv or list(LANGUAGES)]
    print(
        f"{'list':<4} {'words':>9} {'file MiB':>8} | {'load ms':>7} {'set ms':>7}"
        f" | {'RSS MiB':>7} {'set MiB':>7} | {'lookups/s':>10} {'set /s':>10}"
        f" {'µs':>5} {'× set':>5} | {'key µs':>6} {'set µs':>6} | {'hits':>4}"
    )
    for lang, n, size, dms, sms, dmib, smib, ours, theirs, raw, raw_set, hits in rows:
        print(
            f"{lang:<4} {n:>9,} {size:>8.2f} | {dms:>7.1f} {sms:>7.0f} | {dmib:>7.1f}"
            f" {smib:>7.0f} | {ours.per_second:>10,.0f} {theirs.per_second:>10,.0f}"
            f" {ours.median:>5.2f} {ours.median / theirs.median:>5.2f}"
            f" | {raw.median:>6.3f} {raw_set.median:>6.3f} | {hits:>4.0%}"
        )
    print(
        "lookups/s and µs: contains(typed word), i.e. normalise to tiles + membership; the set"
        " column does the same normalisation, then `key in set`. key µs: membership alone, of"
        " a ready key. Goals: Polish load < 100 ms, < 30 MiB, < 1 µs per lookup."
    )


if __name__ == "__main__":
    main(sys.argv[1:])
