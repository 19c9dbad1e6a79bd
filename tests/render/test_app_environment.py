"""``render(…, env=app_env)`` with an application's own Jinja2 environment that does not load
the extension (SPEC §21): it renders through an overlay made once per environment, and the
application's environment is left exactly as it was."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path
from typing import Any

import pytest
from jinja2 import (
    DictLoader,
    Environment,
    FileSystemBytecodeCache,
    StrictUndefined,
    UndefinedError,
)
from jinja2.exceptions import SecurityError
from jinja2.sandbox import SandboxedEnvironment

from textcontract.model import Anchor, Document, Surface
from textcontract.render import claims_environment, environment, render, render_async
from textcontract.render._overlay import _OVERLAYS

SOURCE = "{% surface 'subject' %}Order {{ claim('order.id', n) }}{% endsurface %}Total {{ total }}"


def _state(env: Environment) -> dict[str, Any]:
    """Everything of ``env`` a rendering could have changed, by identity and by content."""
    return {
        "attributes": dict(vars(env)),
        "globals": (id(env.globals), dict(env.globals)),
        "filters": (id(env.filters), dict(env.filters)),
        "tests": (id(env.tests), dict(env.tests)),
        "extensions": (id(env.extensions), dict(env.extensions)),
        "cache": None if env.cache is None else dict(env.cache.items()),
    }


def _surface(document: Document, name: str) -> Surface:
    found = document.surface(name)
    assert found is not None
    return found


def _value(_key: str, value: object) -> object:
    """``claim`` as an application without the extension might define it."""
    return value


def _app_environment(**options: Any) -> Environment:
    env = Environment(undefined=StrictUndefined, **options)
    env.filters["shout"] = str.upper
    env.globals["shop"] = "Lumen & Oak"
    return env


def test_an_environment_without_the_extension_renders_claims_and_stays_unchanged() -> None:
    app_env = _app_environment()
    before = _state(app_env)
    document = render(SOURCE, {"n": 1001, "total": "59.90"}, env=app_env)
    assert document == render(SOURCE, {"n": 1001, "total": "59.90"})  # as with ours
    subject = _surface(document, "subject")
    assert (subject.text, subject.claims) == ("Order 1001", {"order.id": 1001})
    assert subject.anchors["order.id"] == (Anchor(6, 10, "1001"),)
    assert _state(app_env) == before
    assert "claim" not in app_env.globals
    with pytest.raises(UndefinedError):  # the application's own renderings never see claim()
        app_env.from_string("{{ claim('k', 1) }}").render()


def test_the_applications_settings_filters_and_globals_apply() -> None:
    app_env = _app_environment(autoescape=True, trim_blocks=True)
    source = "{% if 1 %}\n{{ shop|shout }} {{ claim('name', name) }}{% endif %}"
    document = render(source, {"name": "<Dana>"}, env=app_env)
    body = _surface(document, "body")
    assert body.text == "LUMEN &amp; OAK &lt;Dana&gt;"  # autoescape, trim_blocks, its filter
    assert body.claims == {"name": "<Dana>"}
    with pytest.raises(UndefinedError):  # its StrictUndefined
        render("{{ missing }}", env=app_env)
    app_env.filters["later"] = lambda value: f"[{value}]"  # added after the overlay was made
    assert _surface(render("{{ 1|later }}", env=app_env), "body").text == "[1]"


def test_one_overlay_per_environment_dropped_with_it() -> None:
    app_env, other = Environment(), Environment()
    overlay = claims_environment(app_env)
    assert claims_environment(app_env) is overlay
    assert claims_environment(other) is not overlay
    assert claims_environment(overlay) is overlay  # it loads the extension itself
    ours = environment()
    assert claims_environment(ours) is ours
    assert ours not in _OVERLAYS
    render("{{ claim('k', 1) }}", env=app_env)
    assert _OVERLAYS[app_env] is overlay
    held, held_overlay = weakref.ref(app_env), weakref.ref(overlay)
    gc.collect()  # entries of environments earlier tests dropped
    count = len(_OVERLAYS)
    del app_env, overlay
    gc.collect()
    assert (held(), held_overlay()) == (None, None)  # the overlay never kept it alive
    assert len(_OVERLAYS) == count - 1


def test_templates_from_the_applications_loader_are_compiled_with_the_extension() -> None:
    templates = {
        "mail.txt": "{% include 'total.txt' %} for {{ claim('order.id', n) }}",
        "total.txt": "Total {{ claim('order.total', total) }}",
    }
    app_env = Environment(loader=DictLoader(templates))
    plain = app_env.get_template("mail.txt")  # compiled and cached by the application first
    assert plain.render(claim=_value, n=1, total=2) == "Total 2 for 1"
    overlay = claims_environment(app_env)
    document = render(overlay.get_template("mail.txt"), {"n": 1001, "total": 59.9})
    assert _surface(document, "body").claims == {"order.total": 59.9, "order.id": 1001}
    assert overlay.get_template("mail.txt") is overlay.get_template("mail.txt")  # cached
    assert app_env.get_template("mail.txt") is plain  # the application's cache untouched
    again = render("{% include 'mail.txt' %}", {"n": 1, "total": 2}, env=app_env)
    assert _surface(again, "body").claims == {"order.total": 2, "order.id": 1}
    # a template of the overlay goes with env=app_env too: it is that environment's
    assert _surface(
        render(overlay.get_template("total.txt"), {"total": 3}, env=app_env), "body"
    ).claims == {"order.total": 3}


def test_a_bytecode_cache_never_mixes_the_two_compilations(tmp_path: Path) -> None:
    templates = {"mail.txt": "Order {{ claim('order.id', n) }}"}
    app_env = Environment(
        loader=DictLoader(templates), bytecode_cache=FileSystemBytecodeCache(str(tmp_path))
    )
    overlay = claims_environment(app_env)
    assert overlay.bytecode_cache is None
    document = render(overlay.get_template("mail.txt"), {"n": 7})
    assert _surface(document, "body").claims == {"order.id": 7}
    fresh = Environment(
        loader=DictLoader(templates), bytecode_cache=FileSystemBytecodeCache(str(tmp_path))
    )
    with pytest.raises(UndefinedError):  # plain Jinja2 code from the cache, no claim filter
        fresh.get_template("mail.txt").render(n=7)
    assert "\x00" not in fresh.get_template("mail.txt").render(n=7, claim=_value)


def test_a_sandboxed_application_environment_stays_sandboxed() -> None:
    app_env = SandboxedEnvironment()
    document = render("{{ claim('k', v) }}", {"v": 5}, env=app_env)
    assert _surface(document, "body").claims == {"k": 5}
    assert isinstance(claims_environment(app_env), SandboxedEnvironment)
    with pytest.raises(SecurityError):
        render("{{ f.__code__.co_consts }}", {"f": lambda: 1}, env=app_env)


def test_an_async_application_environment_renders_with_render_async() -> None:
    import asyncio

    app_env = Environment(enable_async=True)
    document: Document = asyncio.run(render_async("{{ claim('k', 3) }}", env=app_env))
    assert _surface(document, "body").claims == {"k": 3}
    assert "claim" not in app_env.globals
