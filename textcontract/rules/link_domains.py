"""LinkDomains: every http(s) link in a surface leads to an allowed domain.

Links are searched in the surface's original text, not in its normalized
form, and split the way a browser's URL parser splits them: the host is what
follows the last ``@`` of the authority and precedes a ``:port``, and the
authority ends at ASCII ``/ \\ ? #``, whitespace, ``<`` or ``>``. Normalizing
first would let a compatibility character pose as a delimiter —
``https://allowed.example／@evil.example`` goes to ``evil.example``, but NFKC
would turn the fullwidth solidus into ``/`` and make it look like
``allowed.example``. The host alone is then IDNA-mapped (NFKC, case folding)
and lowercased, so ``https://ＥＸＡＭＰＬＥ.com`` is ``example.com`` and
``https://Bücher.example`` is ``xn--bcher-kva.example``.

With ``read`` other than ``raw`` on a Markdown or HTML surface (SPEC §18), the rule
judges the destinations the markup declares — Markdown links, images, autolinks and
reference definitions, HTML ``href``/``src`` (a scheme-relative ``//host/…`` included) —
by where they lead, whatever their text says, plus the bare http(s) links in the chosen
text; evidence is located at the destination. In every mode ``[label](url)`` is the link
``url``: a raw search ends a link's host at ``](``.

Violated::

    {id: links, type: LinkDomains, allowed: [shop.example]}
    document: "Track it at https://shop.example.evil.test/track."

Satisfied::

    {id: links, type: LinkDomains, allowed_from: shop.domain, include_subdomains: true}
    document: "Track it at https://Track.Shop.Example:443/1Z999)."
    context: {"shop.domain": "shop.example"}
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import regex

from textcontract.model import (
    Check,
    Document,
    FactValue,
    Kind,
    Status,
    Surface,
    describe_value,
)
from textcontract.rules._base import (
    PATTERN_TIMEOUT,
    SURFACE_MISSING,
    Code,
    Options,
    PatternRule,
    PatternTimeout,
    RuleHeader,
)
from textcontract.rules._params import (
    BOOLEAN,
    DOMAIN_LIST,
    STATE,
    STRING,
    SURFACES,
    TIMEOUT_MS,
    VIEW_PARAMS,
    Param,
    ParamProblem,
)
from textcontract.rules._subject import Subject, ViewKey
from textcontract.text import Budget, excerpt, find_matches, host_key
from textcontract.text.markup import Link, ViewMap

__all__ = ["LinkDomains"]

# Scheme, any run of slashes or backslashes (browsers accept "https:/\x" for special
# schemes), then the authority up to the first delimiter, or up to "](" (the text
# "[label](url)" is the link url: a label that is itself a URL ends there).
_LINK = regex.compile(r"https?:[/\\]+((?:[^\s/\\?#<>\]]|\](?!\())*)", regex.IGNORECASE)
# What may follow an authority at the end of a link: trailing punctuation, which is not
# part of the link, then the end of the link (whitespace, an angle bracket, end of text).
_TRAILING = ".,;:!?)]}'\""
_LINK_END = regex.compile(r"[.,;:!?)\]}'\"]*(?:[\s<>]|\Z)")
_MAX_LINK_EVIDENCE = 200
_MAX_HOSTS_IN_MESSAGE = 3


def _ends_link(text: str, position: int, budget: Budget) -> bool:
    """Whether only trailing punctuation lies between ``position`` and the link's end."""
    try:
        # concurrent=False: regex's timeout counts process CPU time, so the matcher keeps
        # the GIL to count this thread's alone (text/_search.py).
        found = _LINK_END.match(text, position, timeout=budget.remaining(), concurrent=False)
        return found is not None
    except TimeoutError:
        raise PatternTimeout from None


@dataclass
class _Offender:
    count: int
    link: str
    span: tuple[int, int]


@dataclass
class _Found:
    links: int = 0
    offending: dict[str, _Offender] = field(default_factory=dict)


def _host(authority: str) -> str:
    """The host of an authority: after its last ``@``, before a ``:port``."""
    host = authority.rpartition("@")[2]
    if host.startswith("["):
        close = host.find("]")
        return host if close < 0 else host[: close + 1]
    return host.partition(":")[0]


def _share(bad: int, links: int) -> str:
    if links == 1:
        return "the one http(s) link leads"
    return f"{bad} of {links} http(s) links {'leads' if bad == 1 else 'lead'}"


class LinkDomains(PatternRule):
    name = "LinkDomains"
    kind = Kind.INVARIANT
    summary = "every http(s) link in a surface leads to an allowed domain"
    params: ClassVar[tuple[Param, ...]] = (
        SURFACES,
        Param(
            "allowed",
            DOMAIN_LIST,
            "the allowed domains (IDNA, lowercased); give this or allowed_from",
            default=None,
        ),
        Param(
            "allowed_from",
            STRING,
            "the fact key holding the one allowed domain; give this or allowed",
            default=None,
        ),
        Param("state", STATE, "the snapshot allowed_from is read from", default="current"),
        Param(
            "include_subdomains",
            BOOLEAN,
            "also allow any subdomain of an allowed domain",
            default=False,
        ),
        TIMEOUT_MS,
        *VIEW_PARAMS,
    )
    codes: ClassVar[tuple[Code, ...]] = (
        Code.of(
            "LINK_DOMAIN",
            "every http(s) link's host is allowed (violated when one is not)",
            Status.SATISFIED,
            Status.VIOLATED,
        ),
        Code.of(
            "FACT_UNAVAILABLE",
            "the allowed_from fact is missing, not a string, or not a domain name",
            Status.UNDETERMINED,
        ),
        SURFACE_MISSING,
        PATTERN_TIMEOUT,
    )
    main_code = "LINK_DOMAIN"
    reads_surfaces_only = True

    @classmethod
    def validate_options(cls, options: Mapping[str, Any]) -> list[ParamProblem]:
        given = [name for name in ("allowed", "allowed_from") if options.get(name) is not None]
        if len(given) == 2:
            return [ParamProblem("give 'allowed' or 'allowed_from', not both", ("allowed_from",))]
        if not given:
            return [ParamProblem("LinkDomains requires 'allowed' or 'allowed_from'")]
        return []

    def __init__(self, header: RuleHeader, options: Options) -> None:
        super().__init__(header, options)
        allowed = options.strings("allowed")
        self._allowed = None if allowed is None else frozenset(allowed)
        self._allowed_from = options.raw("allowed_from")
        self._state = options.text("state")
        self._subdomains = options.boolean("include_subdomains")

    def surfaces_read(self, document: Document) -> tuple[str, ...] | None:
        # allowed_from reads the context: only a fixed allowed list depends on surfaces alone
        return super().surfaces_read(document) if self._allowed is not None else None

    def evaluate(self, subject: Subject) -> Iterator[Check]:
        # The allowed_from fact is read once, not once per surface.
        allowed = self._resolve(subject)
        for name, surface in self.surfaces(subject):
            if surface is None:
                yield self.missing_surface(name)
            else:
                yield self._surface_check(subject, surface, allowed)

    def evaluate_surface(self, subject: Subject, surface: Surface) -> Iterator[Check]:
        yield self._surface_check(subject, surface, self._resolve(subject))

    def _resolve(self, subject: Subject) -> frozenset[str] | dict[str, Any]:
        """The allowed domains, or the evidence of why allowed_from cannot be used."""
        return self._allowed if self._allowed is not None else self._from_context(subject)

    def _surface_check(
        self, subject: Subject, surface: Surface, allowed: frozenset[str] | dict[str, Any]
    ) -> Check:
        if isinstance(allowed, frozenset):
            return self._check_surface(subject, surface, allowed)
        return self._unavailable(surface, allowed)

    def _from_context(self, subject: Subject) -> frozenset[str] | dict[str, Any]:
        """The allowed_from domain, or why it cannot be used (evidence)."""
        key: str = self._allowed_from
        state = self._state
        present, value = subject.context.fact(state, key)
        if not present:
            missing = "snapshot" if state not in subject.context.states else "key"
            return {"state": state, "key": key, "missing": missing}
        if not isinstance(value, str):
            return {"state": state, "key": key, "actual": value, "reason": "not a string"}
        try:
            (domain,) = DOMAIN_LIST.convert([value])
        except ParamProblem as problem:
            return {"state": state, "key": key, "actual": value, "reason": problem.message}
        return frozenset((domain,))

    def _unavailable(self, surface: Surface, refusal: dict[str, Any]) -> Check:
        key, state = refusal["key"], refusal["state"]
        if "missing" in refusal:
            where = "no snapshot" if refusal["missing"] == "snapshot" else "not in snapshot"
            why = f"{key} is unknown ({where} {state!r})"
        else:
            actual: FactValue = refusal["actual"]
            why = f"{key} is {describe_value(actual)}, which is not a domain name"
        return self.check(
            Status.UNDETERMINED,
            "FACT_UNAVAILABLE",
            f"surface:{surface.name}",
            f"cannot check links: the allowed domain is unavailable: {why}",
            evidence=[refusal],
        )

    def _check_surface(self, subject: Subject, surface: Surface, allowed: frozenset[str]) -> Check:
        view = subject.reads(surface, self.view)
        try:
            if view is None:
                found = self._scan(surface.text, allowed, _Found(), None)
            else:
                found = self._scan_markup(subject, surface, view, allowed)
        except PatternTimeout:
            return self.timeout(surface)
        scope = f"surface:{surface.name}"
        metrics = {
            "links": found.links,
            "offending_links": sum(item.count for item in found.offending.values()),
        }
        if not found.offending:
            if found.links == 0:
                message = "no http(s) links"
            elif found.links == 1:
                message = "the one http(s) link leads to an allowed domain"
            else:
                message = f"all {found.links} http(s) links lead to allowed domains"
            return self.check(Status.SATISFIED, "LINK_DOMAIN", scope, message, metrics=metrics)
        hosts = sorted(found.offending)
        offenders = [found.offending[host] for host in hosts]
        places = subject.locate_original(surface, [offender.span for offender in offenders])
        evidence = [
            {
                "host": host,
                "count": offender.count,
                "link": offender.link,
                "span": list(offender.span),
                "excerpt": excerpt(surface.text, *offender.span),
                "location": place.to_json(),
            }
            for host, offender, place in zip(hosts, offenders, places, strict=True)
        ]
        shown = ", ".join(hosts[:_MAX_HOSTS_IN_MESSAGE])
        if len(hosts) > _MAX_HOSTS_IN_MESSAGE:
            shown += f" and {len(hosts) - _MAX_HOSTS_IN_MESSAGE} more"
        return self.check(
            Status.VIOLATED,
            "LINK_DOMAIN",
            scope,
            f"{_share(metrics['offending_links'], found.links)} outside the allowed domains: "
            f"{shown}",
            evidence=evidence,
            metrics=metrics,
        )

    def _scan_markup(
        self, subject: Subject, surface: Surface, view: ViewKey, allowed: frozenset[str]
    ) -> _Found:
        """The destinations the markup declares, then the bare links of the chosen text
        (its declared destinations left out: they are judged once, as destinations)."""
        kinds, within = view
        found = _Found()
        for link in subject.layout(surface).chosen_links(within):
            self._judge_destination(link, allowed, found)
        searched = kinds - {"url"}
        if searched:
            text_view = (searched, within)
            text = subject.text(surface, text_view)
            back = subject.reads(surface, text_view)
            mapping = None if back is None else subject.view(surface, back).map
            self._scan(text, allowed, found, mapping)
        return found

    def _judge_destination(self, link: Link, allowed: frozenset[str], found: _Found) -> None:
        url = link.url
        if url.startswith("//"):  # scheme-relative: the page's scheme, http(s) on the web
            url = "https:" + url
        match = _LINK.match(url)
        if match is None:
            return  # a relative, mailto: or other destination leads to no host
        host = _host(match.group(1))
        if host:
            self._judge(host, link.url, (link.start, link.end), allowed, found, {})

    def _scan(
        self, text: str, allowed: frozenset[str], found: _Found, mapping: ViewMap | None
    ) -> _Found:
        keys: dict[str, str | None] = {}
        budget = self.budget()
        for match in find_matches(_LINK, text, budget):
            authority = match.group(1)
            if _ends_link(text, match.end(), budget):
                authority = authority.rstrip(_TRAILING)
            host = _host(authority)
            if not host:
                continue
            start, stop = match.start(), match.start(1) + len(authority)
            span = (start, stop) if mapping is None else mapping.span(start, stop)
            self._judge(host, text[start:stop], span, allowed, found, keys)
        return found

    def _judge(
        self,
        host: str,
        link: str,
        span: tuple[int, int],
        allowed: frozenset[str],
        found: _Found,
        keys: dict[str, str | None],
    ) -> None:
        """Count one link; keep it as evidence when its host is not allowed."""
        found.links += 1
        if host not in keys:
            keys[host] = host_key(host)
        key = keys[host]
        if key is not None and self._allows(key, allowed):
            return
        shown = key if key is not None else host.casefold()
        offender = found.offending.get(shown)
        if offender is None:
            if len(link) > _MAX_LINK_EVIDENCE:
                link = link[:_MAX_LINK_EVIDENCE] + "…"
            found.offending[shown] = _Offender(1, link, span)
        else:
            offender.count += 1

    def _allows(self, key: str, allowed: frozenset[str]) -> bool:
        if key in allowed:
            return True
        if not self._subdomains:
            return False
        labels = key.split(".")
        return any(".".join(labels[index:]) in allowed for index in range(1, len(labels)))
