"""The command-line interface: thin commands over the library."""

from textcontract.cli._app import app

__all__ = ["app", "main"]


def main() -> None:
    """Console-script entry point."""
    app()
