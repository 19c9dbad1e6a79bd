"""An application's own Jinja2 environment, seen with :class:`ClaimExtension` loaded (SPEC §21).

An application that already configures a ``jinja2.Environment`` (its loader, filters,
globals, autoescaping, a sandbox) renders through an *overlay* of it: Jinja2's own linked
copy, which shares the loader and every setting, plus the extension. Three things of a
plain ``env.overlay(extensions=…)`` would reach back into the application's environment,
and are done otherwise:

- the extension registers ``claim`` and its filters in ``globals`` and ``filters``, which an
  overlay shares with its parent: the overlay gets its own layer on top of each
  (``ChainMap``), so the application's dictionaries are never written to, while what the
  application adds to them later still shows through;
- a bytecode cache keys a template by its name and source only, so the overlay's compiled
  code (rewritten by the extension) and the application's would be read for each other:
  the overlay has none (its own template cache, empty at first, keeps what it compiled);
- ``linked_to`` would hold the application's environment strongly (see below).

One overlay per environment is kept in a :class:`weakref.WeakKeyDictionary`, so a
template the overlay loaded is compiled once and found again in its cache. This is module
state, deliberately: an entry is a pure function of its key (nothing a caller passes
changes it), it can change no result — only whether a template is compiled again — and it
goes when the application drops its environment, since the overlay refers back to it only
weakly. Keeping it on the environment itself instead (an attribute) would change the
application's object, and Jinja2 copies an environment's attributes into every overlay the
application makes of it later, which would then find the wrong overlay.

As with every Jinja2 overlay, settings changed on the application's environment after its
first rendering here are not seen (Jinja2 asks for environments to be configured before the
first template is loaded); globals, filters and tests added later are.
"""

from __future__ import annotations

import weakref
from collections import ChainMap
from typing import Any, cast

from jinja2 import Environment

from textcontract.render._extension import ClaimExtension

__all__ = ["EXTENSION", "claims_environment", "loads_claims"]

EXTENSION = f"{ClaimExtension.__module__}.{ClaimExtension.__name__}"
"""The key of :class:`ClaimExtension` in ``Environment.extensions``."""

_OVERLAYS: weakref.WeakKeyDictionary[Environment, Environment] = weakref.WeakKeyDictionary()


def loads_claims(env: Environment) -> bool:
    """Whether ``env`` itself loads :class:`ClaimExtension`."""
    return EXTENSION in env.extensions


def claims_environment(env: Environment) -> Environment:
    """``env`` when it loads :class:`ClaimExtension`, else its overlay that does (made once
    per environment); ``env`` itself is left as it was."""
    if loads_claims(env):
        return env
    overlay = _OVERLAYS.get(env)
    if overlay is None:
        # two threads may both build one: either is right, and the first stored is kept
        overlay = _OVERLAYS.setdefault(env, _overlay(env))
    return overlay


def _layer(shared: dict[str, Any]) -> dict[str, Any]:
    """A dictionary whose writes stay in a layer of its own over ``shared``."""
    # Jinja2 reads these mappings by key, by ``in``, ``get`` and ``keys()``, all of which a
    # ChainMap answers as the dict it is declared to be
    return cast(dict[str, Any], ChainMap({}, shared))


def _overlay(env: Environment) -> Environment:
    overlay = env.overlay(bytecode_cache=None)
    overlay.linked_to = cast(Environment, weakref.proxy(env))
    overlay.globals = _layer(env.globals)
    overlay.filters = _layer(env.filters)
    overlay.tests = _layer(env.tests)
    overlay.add_extension(ClaimExtension)
    return overlay
