"""The W2 floor: the least work any correct engine does for W2, in one whole process.

Usage: python benchmarks/floor_w2.py CORPUS WORDS — prints one line per document,
``HITS<TAB>PATH``, in the order of the sorted paths.

What it does, and nothing more: find the ``*.txt`` files under CORPUS (hidden files and
folders skipped, as ``textcontract check`` searches a folder); read and decode each one
(UTF-8, a leading BOM dropped); build its ``text`` profile and its ``folded`` profile exactly
as SPEC §4 defines them, with the standard library's ``unicodedata`` — ``text`` = NFC of the
case fold of NFKC; ``folded`` = NFC of NFD(``text``) without each Mn whose base is of script
Latin, Greek or Cyrillic (the script property comes from ``regex``, which the standard
library lacks) — and search the ``folded`` text: one RE2 set of the words finds the
candidate patterns, and ``regex`` (IGNORECASE, as textcontract compiles patterns) counts
every match of each candidate ``\\bWORD\\b``. HITS is that count: what textcontract reports
as a ForbiddenPattern check's ``matches``.

No shortcut the SPEC does not state: every text goes through the whole chain (no ASCII
path, no tables), and each normalization is one call of the standard library. ``folded`` is
derived from ``text`` rather than from the raw text again — the same string, since NFD of an
NFC string is the NFD of the string before it.

Imports only the standard library, ``regex`` and ``google-re2``: run by benchmarks/_w2.py as
a fresh process, beside ``textcontract check`` of the same folder, and timed from process
start to exit.
"""

from __future__ import annotations

import os
import sys
import unicodedata
from collections.abc import Iterator

import re2
import regex

# An Mn whose base — the nearest character before it that is not a mark — is Latin, Greek or
# Cyrillic (SPEC §4). The look-behind walks back over the marks between the base and it.
_ACCENT = regex.compile(
    r"\p{Mn}(?<=[[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]--\p{M}]\p{M}*)",
    regex.V1,
)
# regex's IGNORECASE also matches i with dotted İ and dotless ı; RE2's does not.
_RE2_CHARS = {"i": "[iı\u0130]"}


def text_profile(raw: str) -> str:
    return unicodedata.normalize("NFC", unicodedata.normalize("NFKC", raw).casefold())


def folded_profile(text: str) -> str:
    return unicodedata.normalize("NFC", _ACCENT.sub("", unicodedata.normalize("NFD", text)))


def documents(corpus: str) -> Iterator[str]:
    """The ``*.txt`` files under ``corpus``, hidden ones skipped, sorted by path."""
    found: list[str] = []
    for folder, subfolders, files in os.walk(corpus):
        subfolders[:] = [name for name in subfolders if not name.startswith(".")]
        found.extend(
            os.path.join(folder, name)
            for name in files
            if name.endswith(".txt") and not name.startswith(".")
        )
    return iter(sorted(found))


def literal_set(words: list[str]) -> re2.Set:
    options = re2.Options()
    options.case_sensitive = False
    found = re2.Set.SearchSet(options)
    for word in words:
        found.Add("".join(_RE2_CHARS.get(char, regex.escape(char)) for char in word))
    found.Compile()
    return found


def main(corpus: str, words_path: str) -> None:
    with open(words_path, encoding="utf-8") as stream:
        words = [line.strip() for line in stream if line.strip()]
    patterns = [regex.compile(rf"\b{word}\b", regex.IGNORECASE) for word in words]
    literals = literal_set(words)
    lines: list[str] = []
    for path in documents(corpus):
        with open(path, "rb") as stream:
            raw = stream.read().decode("utf-8").removeprefix("\ufeff")
        folded = folded_profile(text_profile(raw))
        hits = 0
        for index in literals.Match(folded.encode("utf-8")) or ():
            hits += sum(1 for _ in patterns[index].finditer(folded))
        lines.append(f"{hits}\t{path}\n")
    sys.stdout.write("".join(lines))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
