"""Help pages that name arguments as users write them (``DOC…``, ``DIR``), never Python types,
and that come at once (SPEC §21).

typer prints an argument as ``{documents}...`` in the usage line and adds its Python type
(``<list[Path]>``) in the Arguments section. :class:`Command` uses the argument's
metavar alone in both places; options already show their metavar (``--output FILE``).

typer gives its ``-h/--help`` flag no default, so a command line without it (``textcontract
check -h`` for the application's own flag; ``check --version`` for the command's) sends the
missing value through typer's type coercion, which imports pydantic for it: a third of the
time of ``check -h``. :class:`Command` and :class:`Group` give that flag the default a flag
has, ``False``, which typer passes through as it is (tests/cli/test_imports.py checks that
no help page imports pydantic).
"""

from __future__ import annotations

import re
from typing import Any

from typer import BadParameter
from typer.core import TyperCommand, TyperGroup

__all__ = ["Command", "Group", "choice_message"]


def _unset_is_false(option: Any) -> Any:
    """The help flag, its value when not given set to ``False`` (typer leaves it unset)."""
    if option is not None and option.default is None:
        option.default = False
    return option


_QUOTED = r"'(?:[^'\\]|\\.)*'" + "|" + r'"(?:[^"\\]|\\.)*"'
_NOT_A_CHOICE = re.compile(rf"(?:Value error, )?({_QUOTED}) is not one of (.*)\.\Z", re.DOTALL)


def choice_message(message: str) -> str:
    """typer's message for a value that is not one of an option's choices, said as every
    other input error of textcontract says it, with a "did you mean" when one is close
    (``'jsn' is not one of text, json, jsonl (did you mean 'json'?)``); other messages as
    they are."""
    found = _NOT_A_CHOICE.match(message)
    if found is None:
        return message
    import ast

    from textcontract.fields import did_you_mean

    try:
        given = ast.literal_eval(found.group(1))
        choices = [ast.literal_eval(choice) for choice in re.findall(_QUOTED, found.group(2))]
    except (ValueError, SyntaxError):
        return message
    said = f"{given!r} is not one of {', '.join(choices)}"
    hint = did_you_mean(given, choices)
    return f"{said} ({hint})" if hint else said


class Group(TyperGroup):
    """The application: typer's, its help flag ``False`` when not given."""

    def get_help_option(self, ctx: Any) -> Any:
        return _unset_is_false(super().get_help_option(ctx))


class Command(TyperCommand):
    """A typer command whose help shows each argument by its metavar, its help flag
    ``False`` when not given."""

    def get_help_option(self, ctx: Any) -> Any:
        return _unset_is_false(super().get_help_option(ctx))

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except BadParameter as error:
            error.message = choice_message(error.message)
            raise

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument" and param.metavar:
                pieces.append(param.metavar if param.required else f"[{param.metavar}]")
            else:
                pieces.extend(param.get_usage_pieces(ctx))
        return pieces

    def format_options(self, ctx: Any, formatter: Any) -> None:
        sections: dict[str, list[tuple[str, str]]] = {"Arguments": [], "Options": []}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            name, text = record
            if param.param_type_name == "argument":
                sections["Arguments"].append((param.metavar or name, text))
            elif param.param_type_name == "option":
                sections["Options"].append((name, text))
        for title, rows in sections.items():
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)
