"""Generating a mutation corpus against auditing it (SPEC §14), and its cost by baseline size (§22).

    python benchmarks/mutate.py            # the figures and the size series (a few minutes)
    python benchmarks/mutate.py --series   # the size series alone
    python benchmarks/mutate.py --smoke    # CI: one small round, a short series; asserts nothing

The baseline is a 2 KB shipping e-mail (the order-1001 fixture with more prose), accepted and
complete under the shipped order contract, alone and with the three built-in packs included.
Case files are generated with seeds 0, 1, 2, … until they hold at least 1,000 variants;
``generate`` is ``generate_case`` plus ``to_yaml`` for all of them, in this process. ``audit``
is ``audit_directory`` of a folder holding those case files (``--jobs 1``, the report built,
not written). Each figure is the best of ``--rounds`` runs. Target: generate < audit.

The size series generates one case (every operator, seed 0, ``to_yaml`` included) from
baselines of growing size under the order contract, in four shapes: ``repetitive`` — the
e-mail's body over and over (windows of a text edit must grow through long repeats before
they occur once); ``sentence`` — the e-mail, then one sentence repeated as paragraphs (a short
period); ``line`` — the e-mail, then two words repeated on one line; ``random`` — the e-mail,
then paragraphs of pseudo-random words (seeded). Target (§22): time linear in the size, and
a 2 MB repetitive baseline in under a minute.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `textcontract` importable from a checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import textcontract
from textcontract import Context, Document
from textcontract.audit import audit_directory
from textcontract.mutate import GeneratedCase, generate_case

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = ROOT / "fixtures" / "orders" / "textcontract.yaml"
PACKS = "include: [builtin:placeholders, builtin:llm-boilerplate, builtin:leaked-markup]\n"

BODY = """\
Hello Dana,

Good news: your order #1001 left our warehouse today and is on its way with
Parcelway. The parcel holds the walnut desk lamp and two packs of warm-white
bulbs, for a total of 59.90 EUR.

Follow the parcel at https://track.example.net/PW77812001 — the carrier updates
the status every few hours. If anything about the delivery looks wrong, reply
to this e-mail or visit https://shop.example.com/help and we will sort it out.

The lamp is wrapped in recycled paper and sits in a box of corrugated card, so the
whole packaging can go into the paper bin once you have unpacked it. Please keep
the small bag with the spare felt pads: they protect the table top under the base.

Before the first use, let the lamp reach room temperature for an hour if it spent
the night in a cold van. Screw in one of the warm-white bulbs, plug the cable into a
socket and turn the switch on the cable clockwise. The dimmer turns both ways and
stops gently at either end; you cannot overturn it.

Walnut is an oiled wood and darkens a little during the first months, which is
normal and part of its charm. Wipe it with a dry, soft cloth now and then; once a
year a few drops of furniture oil keep the surface smooth and even.

Parcelway delivers on weekdays between eight in the morning and six in the evening.
If nobody is at home, the driver leaves a card and tries again the next working day,
or leaves the parcel with a neighbour when you have allowed that in your account.

Should you want to return the lamp, you have thirty days from delivery. Print the
return label from your account, put the lamp back in its box with the bulbs, and hand
it to any Parcelway shop; the label is free and the money arrives within a week.

Our workshop in Ghent builds every lamp by hand, from the turned walnut base to the
linen-wrapped cable. Tell us how it lights your evenings: a short review helps others.

Thank you for shopping with us,
The Lumen & Oak team
"""


def _baseline() -> tuple[Document, Context]:
    document = Document.from_json(
        {
            "surfaces": {
                "body": {
                    "text": BODY,
                    "claims": {"order.id": 1001, "order.total": 59.9, "order.carrier": "Parcelway"},
                },
                "subject": {"text": "Your order #1001 has shipped", "claims": {"order.id": 1001}},
            }
        }
    )
    context = Context.from_json(
        {
            "states": {
                "current": {
                    "order.id": 1001,
                    "order.status": "shipped",
                    "order.total": 59.9,
                    "order.carrier": "Parcelway",
                }
            },
            "history": ["Hello Dana, we received your order #1001 and will let you know."],
        }
    )
    return document, context


def _best(rounds: int, work: Callable[[], object]) -> float:
    timings = []
    for _ in range(rounds):
        started = time.perf_counter()
        work()
        timings.append(time.perf_counter() - started)
    return min(timings)


def _generate(contract: textcontract.Contract, wanted: int) -> list[tuple[GeneratedCase, str]]:
    document, context = _baseline()
    made: list[tuple[GeneratedCase, str]] = []
    total = 0
    seed = 0
    while total < wanted:
        case = generate_case(document, context, contract, f"order-1001-s{seed}", seed=seed)
        made.append((case, case.to_yaml()))
        total += len(case.variants)
        seed += 1
    return made


def _measure(name: str, contract_text: str, wanted: int, rounds: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        (folder / "contract.yaml").write_text(contract_text, encoding="utf-8")
        (folder / "audit.yaml").write_text("contract: contract.yaml\n", encoding="utf-8")
        contract = textcontract.load_contract(folder / "contract.yaml")
        cases = _generate(contract, wanted)
        generate = _best(rounds, lambda: _generate(contract, wanted))
        for case, text in cases:
            (folder / f"{case.case_id}.yaml").write_text(text, encoding="utf-8")
        audit = _best(rounds, lambda: audit_directory(folder))
        report = audit_directory(folder).report
    variants = sum(len(case.variants) for case, _ in cases)
    size = sum(len(s.text.encode("utf-8")) for s in _baseline()[0].surfaces)
    print(
        f"{name:<22} {size:>6} B  {len(cases):>5} cases  {variants:>6} variants"
        f"  generate {generate:7.3f} s  audit {audit:7.3f} s"
        f"  generate/audit {generate / audit:5.2f}"
        f"  (detection {report['detection']['detected']}/{report['detection']['eligible']})"
    )
    return {"generate": generate, "audit": audit}


def _repetitive(size: int) -> str:
    return BODY * max(size // len(BODY), 1)


def _sentence(size: int) -> str:
    unit = "The lamp is wrapped in recycled paper and sits in a box.\n\n"
    return BODY + unit * max((size - len(BODY)) // len(unit), 0)


def _line(size: int) -> str:
    return BODY + "lamp walnut " * max((size - len(BODY)) // 12, 0)


def _random(size: int) -> str:
    chooser = random.Random(0)
    paragraphs = [BODY.rstrip("\n")]
    total = len(BODY)
    while total < size:
        lines = (
            " ".join(
                "".join(chooser.choice(LETTERS) for _ in range(chooser.randint(2, 9)))
                for _ in range(12)
            )
            for _ in range(4)
        )
        paragraphs.append("\n".join(lines))
        total += len(paragraphs[-1]) + 2
    return "\n\n".join(paragraphs) + "\n"


LETTERS = "abcdefghijklmnoprstuvw"
SHAPES: dict[str, Callable[[int], str]] = {
    "repetitive": _repetitive,
    "sentence": _sentence,
    "line": _line,
    "random": _random,
}
KB = 1000
SERIES = [("repetitive", size * KB) for size in (18, 44, 95, 250, 500, 1000, 2000)]
SERIES += [(shape, size * KB) for shape in ("sentence", "line", "random") for size in (500, 2000)]
SMOKE_SERIES = [("repetitive", 18 * KB), ("repetitive", 44 * KB)]
SMOKE_SERIES += [(shape, 18 * KB) for shape in ("sentence", "line", "random")]


def _series(contract_text: str, sizes: list[tuple[str, int]]) -> None:
    """One generated case per baseline: size, seconds, seconds per MB, variants, YAML size."""
    contract = textcontract.load_contract_text(contract_text, name=str(CONTRACT))
    document, context = _baseline()
    print(f"{'shape':<11} {'size':>9}  {'generate':>9}  {'per MB':>7}  variants  case file")
    for shape, size in sizes:
        data = document.to_json()
        data["surfaces"]["body"]["text"] = SHAPES[shape](size)
        baseline = Document.from_json(data)
        actual = len(data["surfaces"]["body"]["text"].encode("utf-8"))
        started = time.perf_counter()
        case = generate_case(baseline, context, contract, f"{shape}-{size}")
        written = case.to_yaml()
        elapsed = time.perf_counter() - started
        per_mb = elapsed / actual * 1e6
        print(
            f"{shape:<11} {actual / KB:>7.1f} KB  {elapsed:>7.2f} s  {per_mb:>5.1f} s"
            f"  {len(case.variants):>8}  {len(written.encode('utf-8')) / 1e6:>6.1f} MB",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--variants", type=int, default=1000)
    parser.add_argument("--smoke", action="store_true", help="one small round (CI)")
    parser.add_argument("--series", action="store_true", help="the size series alone")
    arguments = parser.parse_args()
    rounds, wanted = (1, 50) if arguments.smoke else (arguments.rounds, arguments.variants)
    text = CONTRACT.read_text(encoding="utf-8")
    if not arguments.series:
        with_packs = text.replace(
            "defaults: {severity: medium}", PACKS + "defaults: {severity: medium}"
        )
        _measure("orders", text, wanted, rounds)
        _measure("orders + 3 packs", with_packs, wanted, rounds)
    _series(text, SMOKE_SERIES if arguments.smoke else SERIES)


if __name__ == "__main__":
    main()
