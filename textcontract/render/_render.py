"""``render()``: a Jinja2 template and its variables in, a Document with claims and anchors out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jinja2 import Environment, StrictUndefined, Template

from textcontract.model import DEFAULT_STATE, FORMATS, PLAIN, Document, is_valid_unicode
from textcontract.render._assemble import ClaimTextChanged, assemble
from textcontract.render._extension import ClaimExtension
from textcontract.render._locate import located, located_async
from textcontract.render._overlay import EXTENSION, claims_environment, loads_claims
from textcontract.render._recorder import ACTIVE, Recorder

__all__ = ["environment", "render", "render_async"]


def environment(**options: Any) -> Environment:
    """A Jinja2 environment with :class:`ClaimExtension` and ``StrictUndefined``.

    ``options`` are Jinja2's (``loader``, ``autoescape``, ``trim_blocks``, …); an
    ``undefined`` given there wins. A variable the template misses is an error rather
    than an empty string: a checker should not start from silently blank text.
    """
    options.setdefault("undefined", StrictUndefined)
    extensions = list(options.pop("extensions", ()))
    if ClaimExtension not in extensions and EXTENSION not in extensions:
        extensions.append(ClaimExtension)
    return Environment(extensions=extensions, **options)


def render(
    template: str | Template,
    variables: Mapping[str, Any] | None = None,
    *,
    env: Environment | None = None,
    state: str = DEFAULT_STATE,
    format: str = PLAIN,
) -> Document:
    """Render ``template`` with ``variables``; surfaces, claims and anchors come from it.

    ``template`` is template source (compiled with ``env``, by default
    :func:`environment`) or a ``jinja2.Template`` (which brings its own environment). An
    ``env`` that does not load :class:`ClaimExtension` compiles through its overlay that
    does (:func:`claims_environment`) and is left unchanged.
    ``state`` is the snapshot of ``body`` and of every surface block without ``state=``;
    ``format`` (``plain``, ``markdown`` or ``html``, SPEC §18) is how they are written,
    for every surface block without ``format=``. Anchors are spans of the text as
    rendered, whatever its format.
    """
    compiled = _compiled(template, env, state, format)
    recorder = Recorder()
    token = ACTIVE.set(recorder)
    try:
        output = compiled.render({} if variables is None else variables)  # render() copies
    finally:
        ACTIVE.reset(token)
    try:
        return assemble(output, recorder, state, compiled, format=format)
    except ClaimTextChanged as changed:
        raise located(changed, compiled, variables, recorder.separator) from None


async def render_async(
    template: str | Template,
    variables: Mapping[str, Any] | None = None,
    *,
    env: Environment | None = None,
    state: str = DEFAULT_STATE,
    format: str = PLAIN,
) -> Document:
    """:func:`render` for an environment created with ``enable_async=True``."""
    compiled = _compiled(template, env, state, format)
    recorder = Recorder()
    token = ACTIVE.set(recorder)
    try:
        output = await compiled.render_async({} if variables is None else variables)
    finally:
        ACTIVE.reset(token)
    try:
        return assemble(output, recorder, state, compiled, format=format)
    except ClaimTextChanged as changed:
        raise await located_async(changed, compiled, variables, recorder.separator) from None


def _compiled(
    template: str | Template, env: Environment | None, state: str, format: str
) -> Template:
    if not isinstance(state, str) or not state or not (state.isascii() or is_valid_unicode(state)):
        raise ValueError(f"state must be a non-empty snapshot name, got {state!r}")
    if type(format) is not str or format not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {format!r}")
    if isinstance(template, Template):
        if env is not None and template.environment not in (env, claims_environment(env)):
            raise ValueError(
                "env compiles template source; a jinja2.Template brings its own environment"
            )
        if not loads_claims(template.environment):
            raise _without_extension()
        return template
    if not isinstance(template, str):
        raise TypeError(f"template must be source text or a jinja2.Template, got {template!r}")
    return (environment() if env is None else claims_environment(env)).from_string(template)


def _without_extension() -> ValueError:
    return ValueError(
        "the template's Jinja2 environment does not load textcontract.render.ClaimExtension: "
        "load it through claims_environment(env).get_template(name), or pass the source "
        "with env=env"
    )
