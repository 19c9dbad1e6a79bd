"""Render Jinja2 templates into Documents whose claims and anchors come from the rendering.

Install with ``pip install 'textcontract[jinja]'``::

    from textcontract.render import render

    document = render('Total: {{ claim("order.total", total, fmt=".2f") }} EUR', {"total": 59.9})
    assert document.surfaces[0].claims == {"order.total": 59.9}

See docs/renderers.md. Importing :mod:`textcontract` never imports Jinja2; this
module is the only one that does.
"""

try:
    import jinja2 as _jinja2
except ImportError:  # pragma: no cover - exercised in a subprocess without Jinja2
    raise ImportError(
        "textcontract.render needs Jinja2 >= 3.1: pip install 'textcontract[jinja]'"
    ) from None

from textcontract.render._claim import claim
from textcontract.render._errors import RenderError
from textcontract.render._extension import ClaimExtension
from textcontract.render._overlay import claims_environment
from textcontract.render._render import environment, render, render_async

del _jinja2

__all__ = [
    "ClaimExtension",
    "RenderError",
    "claim",
    "claims_environment",
    "environment",
    "render",
    "render_async",
]
