"""The table of baselines every operator runs on (not a test module).

Each baseline is a contract, a document and a context that the contract accepts and finds
complete: the shipped order e-mail; a "rich" support reply whose contract has one rule of
every built-in type; the order contract with three built-in packs included; a one-surface
plain-text reply in French with quotes and accents; an order e-mail rendered with claims and
anchors (fixtures/render); a JSON order document.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import textcontract
from textcontract import Context, Document
from textcontract.audit import Trial, load_corpus
from textcontract.contract import ParsedContract
from textcontract.inputs import load_context_file, load_document_file
from textcontract.mutate import GeneratedCase, generate_case

REPO = Path(__file__).resolve().parents[2]
ORDERS = REPO / "fixtures" / "orders"
DOCUMENTS = REPO / "fixtures" / "mutations" / "documents"
RENDER = REPO / "fixtures" / "render"

RICH_CONTRACT = """\
textcontract: 1
id: support-reply
version: 1
rules:
  - id: ticket-open
    type: RequiredFact
    key: ticket.state
    equals: resolved
    state: after
    severity: high
  - id: ticket-number
    type: RequiredFact
    key: ticket.id
    equals: 4521
    state: after
  - id: priority-known
    type: RequiredFact
    key: ticket.priority
    one_of: [low, normal, high]
    state: before
  - id: agent-present
    type: RequiredFact
    key: agent.name
    state: after
  - id: same-customer
    type: CompareFields
    left: {state: before, key: customer.id}
    right: {state: after, key: customer.id}
    op: eq
  - id: refund-within-total
    type: CompareFields
    left: {state: after, key: refund.amount}
    right: {state: after, key: order.total}
    op: le
  - id: state-moves
    type: AllowedTransition
    before: {state: before, key: ticket.state}
    after: {state: after, key: ticket.state}
    allowed: [[open, resolved], [open, pending], [pending, resolved]]
  - id: something-happened
    type: StateChanged
    before: before
    after: after
    keys: [ticket.state, ticket.updated]
  - id: claims-agree
    type: DeclaredClaimsConsistent
    surfaces: [body]
    severity: critical
  - id: no-guarantee
    type: ForbiddenPattern
    code: NO_GUARANTEE
    surfaces: [body]
    patterns: ['\\bguarantee[ds]?\\b', '\\bpromise you\\b']
    examples:
      violated: ["Delivery is GUARANTEED by Friday.", "We promise you a refund."]
      satisfied: ["Delivery is expected by Friday."]
  - id: no-blame
    type: ForbiddenPattern
    patterns: ['\\byour fault\\b']
    accent_folding: false
  - id: refund-settled
    type: SettledPremise
    surfaces: [body]
    premises:
      refund-offered: ['\\bwe can refund\\b', '\\brefund (?:you|it)\\b']
      replacement-sent: ['\\bsend (?:you )?a (?:new|replacement) one\\b']
  - id: cites-ticket
    type: RequiredPattern
    surfaces: [subject, body]
    patterns: ['#\\d{4}']
  - id: signs-off
    type: RequiredPattern
    surfaces: [body]
    match: all
    patterns: ['\\bregards\\b', '\\bsupport team\\b']
  - id: long-enough
    type: MinimumTokens
    surfaces: [body]
    minimum: 30
    minimum_unique: 20
  - id: not-rambling
    type: TokenRange
    surfaces: [body]
    min: 20
    max: 400
  - id: subject-short
    type: TokenRange
    surfaces: [subject]
    max: 12
  - id: varied
    type: LexicalDiversity
    surfaces: [body]
    min: 0.5
  - id: summary-adds
    type: LexicalRestatement
    source: request
    target: body
    overlap_threshold: 0.7
    minimum_novel_tokens: 4
  - id: fresh
    type: NoRepeatedText
    surfaces: [body]
  - id: own-links
    type: LinkDomains
    surfaces: [body]
    allowed_from: shop.domain
    state: after
    include_subdomains: true
"""

RICH_DOCUMENT: dict[str, Any] = {
    "surfaces": {
        "subject": {"text": "Ticket #4521 is resolved", "state": "after"},
        "request": {
            "text": "My lamp arrived broken. Can I get a new lamp or my money?",
            "state": "before",
        },
        "body": {
            "text": (
                "Hello Ada,\n\n"
                "thank you for writing to us about ticket #4521. We're sorry the lamp "
                "arrived damaged; a courier collects it on Tuesday and the café next door "
                "will hold the parcel if you're out.\n\n"
                "You can follow the pick-up at https://help.lumen.example/t/4521 at any "
                'time, and the "returns" page explains the next steps.\n\n'
                "Kind regards,\nThe support team"
            ),
            "state": "after",
            "claims": {"ticket.id": 4521, "ticket.state": "resolved", "refund.amount": 20},
        },
    }
}

RICH_CONTEXT: dict[str, Any] = {
    "states": {
        "before": {
            "ticket.id": 4521,
            "ticket.state": "open",
            "ticket.priority": "high",
            "ticket.updated": 1,
            "customer.id": "c-77",
            "refund.amount": 0,
        },
        "after": {
            "ticket.id": 4521,
            "ticket.state": "resolved",
            "ticket.updated": 2,
            "customer.id": "c-77",
            "agent.name": "Lee",
            "refund.amount": 20,
            "order.total": 59.9,
            "shop.domain": "lumen.example",
        },
    },
    "closed_premises": ["refund-offered"],
    "history": ["Hello Ada, we received your ticket #4521 and will reply within a day."],
}

FRENCH_CONTRACT = """\
textcontract: 1
id: reponse
rules:
  - id: pas-de-remboursement
    type: ForbiddenPattern
    patterns: ['\\bremboursement (?:garanti|immediat)\\b']
  - id: assez-long
    type: MinimumTokens
    minimum: 12
"""

FRENCH_TEXT = (
    "Bonjour Zoé,\n"
    "merci pour votre message : l'équipe a bien reçu la lampe et l'atelier la répare déjà.\n"
    "Nous vous écrirons dès qu'elle sera prête.\n"
)

PACKS_CONTRACT = (
    (ORDERS / "textcontract.yaml")
    .read_text(encoding="utf-8")
    .replace(
        "defaults: {severity: medium}",
        "include: [builtin:placeholders, builtin:llm-boilerplate, builtin:leaked-markup]\n"
        "defaults: {severity: medium}",
    )
)


@dataclass(frozen=True)
class Table:
    """One baseline of the table: a contract (as text) and the (document, context) pair."""

    name: str
    contract_text: str
    document: Document
    context: Context

    @property
    def contract(self) -> ParsedContract:
        return textcontract.load_contract_text(self.contract_text, f"{self.name}.yaml").parsed


def _orders(name: str, contract_text: str) -> Table:
    return Table(
        name,
        contract_text,
        load_document_file(DOCUMENTS / "order-1001.md"),
        load_context_file(DOCUMENTS / "order-1001.context.json"),
    )


def baselines() -> list[Table]:
    return [
        _orders("orders", (ORDERS / "textcontract.yaml").read_text(encoding="utf-8")),
        Table(
            "rich",
            RICH_CONTRACT,
            Document.from_json(RICH_DOCUMENT),
            Context.from_json(RICH_CONTEXT),
        ),
        _orders("packs", PACKS_CONTRACT),
        Table("french", FRENCH_CONTRACT, Document.from_text(FRENCH_TEXT), Context.empty()),
        Table(
            "rendered",
            (RENDER / "textcontract.yaml").read_text(encoding="utf-8"),
            load_document_file(RENDER / "order-1001.json"),
            load_context_file(RENDER / "order-1001.context.json"),
        ),
        Table(
            "order-json",
            (ORDERS / "textcontract.yaml").read_text(encoding="utf-8"),
            load_document_file(DOCUMENTS / "order-2001.json"),
            load_context_file(DOCUMENTS / "order-2001.context.json"),
        ),
    ]


def write_corpus(folder: Path, contract_text: str, cases: list[GeneratedCase]) -> Path:
    """A corpus folder holding the contract, an audit.yaml and one file per case."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "contract.yaml").write_text(contract_text, encoding="utf-8")
    (folder / "audit.yaml").write_text("contract: contract.yaml\n", encoding="utf-8")
    for case in cases:
        (folder / f"{case.case_id}.yaml").write_text(case.to_yaml(), encoding="utf-8")
    return folder


def loaded_trials(folder: Path) -> Iterator[tuple[str, str, list[Trial]]]:
    """``(case, variant, trials)`` of every variant, as the audit's loader builds them."""
    corpus = load_corpus(folder)
    for case in corpus.cases:
        for variant in case.variants:
            yield case.id, variant.id, corpus.trials(case, variant)


def canonical(document: Document, context: Context) -> str:
    return json.dumps(
        {"document": document.to_json(), "context": context.to_json()}, sort_keys=True
    )


def violated(contract: ParsedContract, document: Document, context: Context) -> set[str]:
    """``rule:code:scope`` of every violated check on a trial (test-side evaluation)."""
    report = textcontract.Contract(contract).check(document, context)
    return {
        f"{check.rule_id}:{check.code}:{check.scope}"
        for check in report.checks
        if check.status.value == "violated"
    }


def run(
    contract_text: str,
    document: Document | str | dict[str, Any],
    context: dict[str, Any] | None,
    operator: str,
    seed: int = 0,
) -> tuple[GeneratedCase, ParsedContract]:
    """One operator on a small baseline; the contract is given as YAML text."""
    contract = textcontract.load_contract_text(contract_text, "contract.yaml").parsed
    if isinstance(document, str):
        document = Document.from_text(document)
    elif isinstance(document, dict):
        document = Document.from_json(document)
    loaded = Context.empty() if context is None else Context.from_json(context)
    case = generate_case(document, loaded, contract, "case-1", operators=[operator], seed=seed)
    return case, contract


def caught(contract: ParsedContract, case: GeneratedCase) -> list[bool]:
    """For each variant, whether its expectation is violated on its trial."""
    return [
        all(
            f"{e.rule}:{e.code}:{e.scope}" in violated(contract, v.document, v.context)
            for e in v.expect
        )
        for v in case.variants
    ]


def reasons(case: GeneratedCase) -> list[str]:
    return [skipped.reason for skipped in case.skipped]
