"""link-lookalike: a link's host swapped for one that looks like it and is another domain.

For each surface a LinkDomains rule reads and each distinct host its links use, two variants
rewrite that host in every link of the surface:

* ``subdomain`` — the allowed host becomes a subdomain of another domain
  (``track.example.net`` → ``track.example.net.account-verify.example``), the trick that
  fools a reader who checks how a link starts;
* ``homoglyph`` — one Latin letter of the host's second-level label becomes the Cyrillic
  letter drawn the same (``exаmple``: U+0430), an IDN homograph.

The replacement domain uses the reserved ``.example`` top-level domain, so no generated
corpus names a real site. A host with no letter that has a Cyrillic twin gets no homoglyph.

Valid by construction: both links lead somewhere the shop does not own while reading like
its own address — the phishing-shaped fault the rule exists for. Where it is not: a
Cyrillic host can be a business's genuine address (``пример.рф``); the swap targets Latin
hosts only, where a lone Cyrillic letter has no innocent reading.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

import regex

from textcontract.model import Surface
from textcontract.mutate._base import (
    Baseline,
    Mutation,
    Operator,
    OperatorClass,
    Proposal,
    Skip,
    expected,
    with_texts,
)
from textcontract.mutate._choice import Chooser
from textcontract.rules import RuleType

__all__ = ["LinkLookalike", "homoglyph", "link_hosts", "subdomain_trick"]

# Links as LinkDomains splits them: scheme, slashes, authority up to the first delimiter.
_LINK = regex.compile(r"https?:[/\\]+([^\s/\\?#<>]*)", regex.IGNORECASE)
_TRAILING = ".,;:!?)]}'\""
_TRICK = "account-verify.example"
_TWINS = {"a": "а", "c": "с", "e": "е", "i": "і", "o": "о", "p": "р", "x": "х", "y": "у"}


def link_hosts(text: str) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of the host of every http(s) link in ``text``."""
    for found in _LINK.finditer(text):
        authority = found.group(1).rstrip(_TRAILING)
        start = found.start(1) + authority.rfind("@") + 1
        host = authority[authority.rfind("@") + 1 :]
        if host.startswith("[") or not host:
            continue
        end = start + len(host.partition(":")[0])
        if end > start:
            yield start, end


def subdomain_trick(host: str) -> str:
    return f"{host.rstrip('.')}.{_TRICK}"


def homoglyph(host: str) -> str | None:
    """``host`` with one letter of its second-level label (else any label) drawn in Cyrillic."""
    labels = host.split(".")
    order = [len(labels) - 2, *range(len(labels))] if len(labels) > 1 else [0]
    for index in order:
        label = labels[index]
        for position, char in enumerate(label):
            twin = _TWINS.get(char.lower())
            if twin is not None:
                labels[index] = label[:position] + twin + label[position + 1 :]
                return ".".join(labels)
    return None


def _rewritten(text: str, host: str, new: str) -> str:
    """``text`` with ``new`` for every link host that is ``host`` (pieces joined once)."""
    pieces: list[str] = []
    done = 0
    for start, end in link_hosts(text):
        if text[start:end] == host:
            pieces += (text[done:start], new)
            done = end
    pieces.append(text[done:])
    return "".join(pieces)


class LinkLookalike(Operator):
    name = "link-lookalike"
    probe_class = OperatorClass.DEFECT
    targets: ClassVar[tuple[str, ...]] = ("LinkDomains",)
    summary = (
        "a link's host becomes a lookalike — the allowed host as a subdomain of another "
        "domain, or one letter in Cyrillic: it reads like the shop's address and is not"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        del chooser  # every host and both forms are used
        for entry in baseline.entries(self.targets):
            rule = entry.rule
            for surface in baseline.surfaces_read(rule):
                yield from self._surface(baseline, rule, surface)

    @staticmethod
    def _surface(baseline: Baseline, rule: RuleType, surface: Surface) -> Iterator[Proposal]:
        text = surface.text
        hosts = list(dict.fromkeys(text[start:end] for start, end in link_hosts(text)))
        if not hosts:
            yield Skip(f"{rule.header.id} on surface {surface.name!r}: no http(s) link")
            return
        for host in hosts:
            for form, new in (("subdomain", subdomain_trick(host)), ("homoglyph", homoglyph(host))):
                if new is None:
                    yield Skip(f"{rule.header.id}: host {host!r} has no letter with a twin")
                    continue
                yield Mutation(
                    with_texts(baseline.document, {surface.name: _rewritten(text, host, new)}),
                    baseline.context,
                    f"links to {host} on surface {surface.name!r} now go to {new} ({form})",
                    (expected(rule, rule.main_code, f"surface:{surface.name}"),),
                )
