"""Rendering overhead of textcontract.render against plain Jinja2 (SPEC §15).

    python benchmarks/render.py            # the figures (a few seconds)
    python benchmarks/render.py --phases   # and the two halves of render()
    python benchmarks/render.py --smoke    # CI: a few rounds, asserts nothing about time

The subject is a ~2 KB order e-mail with a subject surface and ten claims (money with
``fmt=".2f"``, ids, a date, a boolean, a loop over items). It is rendered:

- ``render()``: ``textcontract.render.render(template, variables)`` → a Document with claims
  and anchors (markers, recorder, post-processing and the Document included; a surface
  builds its anchors when they are first read);
- ``render() + anchors``: the same, then every surface's anchors read (what a check with
  ClaimsAnchored or ``to_json()`` does);
- ``plain``: the same e-mail as a plain Jinja2 template — each ``claim(k, v, fmt=F)``
  replaced by ``"{:F}".format(v)`` (or ``v``), the ``{% surface %}`` tags dropped — through
  ``Template.render`` in an environment without the extension;
- ``idle``: the claimed template through ``Template.render`` outside ``render()`` (the
  extension loaded, nothing recorded);
- ``no claims``: the plain template through ``render()``, and through ``Template.render`` in
  an environment with the extension — templates that do not use it must not slow down.

Each figure is the best of many timed batches, in µs per rendering; rounds interleave the
variants so that a busy machine slows them alike. Target: ``render()`` / ``plain`` <= 1.5.

``--phases`` also times render()'s two halves apart: ``recording`` is the claimed template
through ``Template.render`` with a fresh recorder installed (what ``render()`` does before
the assembly), ``assembly`` the assembly of one stored output into a Document, again and
again (so its code and data stay in the caches, unlike in ``render()``).
"""

from __future__ import annotations

import argparse
import re
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `textcontract` importable from a checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from jinja2 import Environment, StrictUndefined

from textcontract.model import Document
from textcontract.render import environment, render
from textcontract.render._assemble import assemble
from textcontract.render._recorder import ACTIVE, Recorder

EMAIL = """\
{% surface "subject", state="after" -%}
Your order #{{ claim("order.id", order.id) }} has shipped
{%- endsurface %}
Hello {{ customer.first_name }},

Good news: your order #{{ claim("order.id", order.id) }} left our warehouse today and is on its
way to you. Below is a summary of what you bought, what you paid, and when you can expect the
parcel. If anything looks wrong, reply to this e-mail and our support team will help you.

Order summary
-------------
{% for item in items %}
  * {{ item.quantity }} x {{ item.name }} ({{ item.sku }}) .......... {{ item.price }} EUR
{% endfor %}

Items:           {{ claim("order.items", items | length) }}
Subtotal:        {{ claim("order.subtotal", order.subtotal, fmt=".2f") }} EUR
Shipping:        {{ claim("order.shipping", order.shipping, fmt=".2f") }} EUR
Discount:        {{ claim("order.discount", order.discount, fmt=".2f") }} EUR
Total paid:      {{ claim("order.total", order.total, fmt=".2f") }} EUR
Payment method:  {{ order.payment_method }}
Gift wrapping:   {{ claim("order.gift_wrap", order.gift_wrap) }}

Delivery
--------
Carrier:         {{ order.carrier }}
Tracking number: {{ claim("order.tracking", order.tracking) }}
Expected by:     {{ claim("order.delivery_date", order.delivery_date) }}
Ship to:         {{ customer.first_name }} {{ customer.last_name }}
                 {{ customer.street }}
                 {{ customer.postcode }} {{ customer.city }}

You can follow the parcel on the carrier's website with the tracking number above. Parcels
usually arrive within two to four working days; during holidays it can take a little longer.
If nobody is at home, the carrier leaves a notice and tries again the next working day, or
leaves the parcel at a pick-up point near you.

Returns are free within 30 days of delivery: keep the original packaging, print the return
label from your account page, and drop the parcel at any pick-up point. We refund the full
amount to your original payment method within five working days of receiving the return.

Thank you for shopping with us, {{ customer.first_name }}!
The Example Shop team
"""

VARIABLES: dict[str, Any] = {
    "order": {
        "id": 100234,
        "subtotal": 84.5,
        "shipping": 4.9,
        "discount": 10.0,
        "total": 79.4,
        "payment_method": "card ending 4242",
        "gift_wrap": False,
        "carrier": "DHL",
        "tracking": "JD014600006281234567",
        "delivery_date": "2024-06-14",
    },
    "customer": {
        "first_name": "Dana",
        "last_name": "Fischer",
        "street": "Lindenstraße 12",
        "postcode": "10115",
        "city": "Berlin",
    },
    "items": [
        {"quantity": 1, "name": "Rain jacket", "sku": "RJ-204", "price": "59.90"},
        {"quantity": 2, "name": "Wool socks", "sku": "WS-011", "price": "9.80"},
        {"quantity": 1, "name": "Water bottle", "sku": "WB-750", "price": "14.80"},
    ],
}

_CLAIM = re.compile(r'claim\("[^"]+", (.+?)(?:, fmt="([^"]+)")?\) }}')
_SURFACE_TAG = re.compile(r"\{%-? (?:surface [^%]*|endsurface) -?%\}")


def plain_template(claimed: str) -> str:
    """The claimed template as plain Jinja2: values formatted inline, surface tags dropped."""

    def inline(match: re.Match[str]) -> str:
        value, fmt = match.group(1), match.group(2)
        return f'"{{:{fmt}}}".format({value}) }}}}' if fmt else f"{value} }}}}"

    return _SURFACE_TAG.sub("", _CLAIM.sub(inline, claimed))


def _best(functions: dict[str, Callable[[], object]], rounds: int, batch: int) -> dict[str, float]:
    """The best batch of each function, in µs per call. Rounds interleave the functions, so
    a busy machine slows them alike; the minimum is the least disturbed figure."""
    best = dict.fromkeys(functions, float("inf"))
    for _ in range(rounds):
        for name, function in functions.items():
            seconds = timeit.timeit(function, number=batch)
            best[name] = min(best[name], seconds / batch * 1e6)
    return best


def _recording(template: Any) -> Callable[[], tuple[str, Recorder]]:
    def recording() -> tuple[str, Recorder]:
        recorder = Recorder()
        token = ACTIVE.set(recorder)
        try:
            return template.render(VARIABLES), recorder
        finally:
            ACTIVE.reset(token)

    return recording


def _anchors_read(document: Document) -> int:
    return sum(len(surface.anchors) for surface in document.surfaces)


def measure(rounds: int, batch: int, *, phases: bool = False) -> dict[str, float]:
    claimed_env = environment()
    plain_env = Environment(undefined=StrictUndefined)
    claimed = claimed_env.from_string(EMAIL)
    plain_source = plain_template(EMAIL)
    plain = plain_env.from_string(plain_source)
    plain_in_claimed_env = claimed_env.from_string(plain_source)
    document = render(claimed, VARIABLES)
    claims = sum(len(surface.claims) for surface in document.surfaces)
    anchors = sum(len(a) for surface in document.surfaces for a in surface.anchors.values())
    functions: dict[str, Callable[[], object]] = {
        "render": lambda: render(claimed, VARIABLES),
        "render_anchors": lambda: _anchors_read(render(claimed, VARIABLES)),
        "plain": lambda: plain.render(VARIABLES),
        "idle": lambda: claimed.render(VARIABLES),
        "no_claims_render": lambda: render(plain_in_claimed_env, VARIABLES),
        "no_claims_with_extension": lambda: plain_in_claimed_env.render(VARIABLES),
    }
    if phases:
        recording = _recording(claimed)
        output, recorder = recording()
        functions["recording"] = recording
        functions["assembly"] = lambda: assemble(output, recorder, "current", claimed)
    timings = _best(functions, rounds, batch)
    return {
        **timings,
        "template_bytes": len(EMAIL.encode("utf-8")),
        "output_chars": len(plain.render(VARIABLES)),
        "claims": claims,
        "anchors": anchors,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--smoke", action="store_true", help="a few rounds; no figures to keep")
    parser.add_argument("--phases", action="store_true", help="also time recording and assembly")
    options = parser.parse_args(argv)
    rounds, batch = (3, 50) if options.smoke else (40, 200)
    found = measure(rounds, batch, phases=options.phases or options.smoke)
    ratio = found["render"] / found["plain"]
    print(
        f"# render overhead: {found['template_bytes']:,} B template, {found['claims']} claims "
        f"({found['anchors']} anchors), {found['output_chars']:,} characters of output"
    )
    print(f"render()                                  {found['render']:8.1f} µs")
    print(f"render(), then its anchors read           {found['render_anchors']:8.1f} µs")
    print(f"plain Jinja2, same e-mail without claims  {found['plain']:8.1f} µs")
    print(f"claimed template outside render() (idle)  {found['idle']:8.1f} µs")
    print(f"template without claims, render()         {found['no_claims_render']:8.1f} µs")
    print(f"template without claims, with extension   {found['no_claims_with_extension']:8.1f} µs")
    print(f"render() / plain: {ratio:.2f} (target <= 1.5)")
    print(f"render() + anchors / plain: {found['render_anchors'] / found['plain']:.2f}")
    if "recording" in found:
        print(f"recording: claimed template with a recorder      {found['recording']:8.1f} µs")
        print(f"assembly of one stored output, alone            {found['assembly']:8.1f} µs")
        after = found["render"] - found["recording"]
        print(f"assembly inside render() (render - recording)   {after:8.1f} µs")
    if options.smoke:
        print("smoke: a few rounds check that the benchmark runs; the target is for full runs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
