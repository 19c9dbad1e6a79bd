"""Help pages that name arguments as users write them (``DOC…``, ``DIR``), never Python types.

typer prints an argument as ``{documents}...`` in the usage line and adds its Python type
(``<list[Path]>``) in the Arguments section. :class:`Command` uses the argument's
metavar alone in both places; options already show their metavar (``--output FILE``).
"""

from __future__ import annotations

from typing import Any

from typer.core import TyperCommand

__all__ = ["Command"]


class Command(TyperCommand):
    """A typer command whose help shows each argument by its metavar."""

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
