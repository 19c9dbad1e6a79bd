"""The GitHub Actions runner's reading of a step's output, as a test model (not a test module).

Written from actions/runner's ``ActionCommand.cs`` (``TryParseV2``, ``TryParse``) and
``ActionCommandManager.cs`` (the registered commands, ``stop-commands``):

- a line is split where .NET's ``ReadLine`` splits it (CR, LF, CRLF);
- ``::name props::data`` is a command when, after the line's leading white space (.NET's
  ``TrimStart``), it starts with ``::``, has a second ``::``, and ``name`` is registered
  (compared ignoring case); properties follow a space, split at ``,``;
- failing that, ``##[name props]data`` anywhere in the line is one (the old syntax);
- ``::stop-commands::TOKEN`` stops every command until a line that is the command
  ``TOKEN`` (``::TOKEN::``); an empty token, or one that names a registered command, is
  refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

DOTNET_WHITESPACE = (
    "\t\n\v\f\r \x85\xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + ("\u2028\u2029\u202f\u205f\u3000")
)  # char.IsWhiteSpace, which string.Trim uses

REGISTERED = frozenset(
    {
        "add-mask",
        "add-matcher",
        "add-path",
        "debug",
        "echo",
        "endgroup",
        "error",
        "group",
        "notice",
        "remove-matcher",
        "save-state",
        "set-env",
        "set-output",
        "stop-commands",
        "warning",
    }
)
"""The commands ActionCommandManager registers (with the extensions of a hosted runner)."""

DATA_ESCAPES = [("\r", "%0D"), ("\n", "%0A"), ("%", "%25")]
PROPERTY_ESCAPES = [("\r", "%0D"), ("\n", "%0A"), (":", "%3A"), (",", "%2C"), ("%", "%25")]

Command = tuple[str, dict[str, str], str]


def unescape(value: str, mappings: list[tuple[str, str]]) -> str:
    # the runner replaces each escape in turn, the %25 last (ActionCommand.cs)
    for token, replacement in mappings:
        value = value.replace(replacement, token)
    return value


def lines(text: str) -> list[str]:
    return re.split(r"\r\n|\r|\n", text)


def parse_v2(line: str, registered: frozenset[str] | set[str] = REGISTERED) -> Command | None:
    """``TryParseV2``: ``::name props::data`` after leading white space."""
    message = line.lstrip(DOTNET_WHITESPACE)
    if not message.startswith("::"):
        return None
    end = message.find("::", 2)
    if end < 0:
        return None
    name, _, rest = message[2:end].partition(" ")
    if name.lower() not in {command.lower() for command in registered}:
        return None
    properties = {}
    for part in (p for p in rest.strip(DOTNET_WHITESPACE).split(",") if p):
        key, equals, value = part.partition("=")
        if key and equals and value:
            properties[key] = unescape(value, PROPERTY_ESCAPES)
    return name.lower(), properties, unescape(message[end + 2 :], DATA_ESCAPES)


def parse_v1(line: str, registered: frozenset[str] | set[str] = REGISTERED) -> Command | None:
    """``TryParse``: ``##[name props]data`` anywhere in the line."""
    start = line.find("##[")
    if start < 0:
        return None
    close = line.find("]", start)
    if close < 0:
        return None
    name, _, rest = line[start + 3 : close].partition(" ")
    if name.lower() not in {command.lower() for command in registered}:
        return None
    properties = {}
    for part in (p for p in rest.split(";") if p):
        key, equals, value = part.partition("=")
        if key and equals:
            properties[key] = value
    return name.lower(), properties, line[close + 1 :]


@dataclass
class Runner:
    """One step's output read line by line: the commands acted on, and the stop state."""

    acted: list[Command] = field(default_factory=list)
    stopped_by: str | None = None
    registered: set[str] = field(default_factory=lambda: set(REGISTERED))

    def read(self, text: str) -> Runner:
        for line in lines(text):
            self.line(line)
        return self

    def line(self, line: str) -> None:
        command = parse_v2(line, self.registered) or parse_v1(line, self.registered)
        if command is None:
            return
        name, _, data = command
        if self.stopped_by is not None:
            if name == self.stopped_by.lower():
                self.registered.discard(self.stopped_by)
                self.stopped_by = None
            return  # "process commands has been stopped"
        if name == "stop-commands":
            if not data or data.lower() in {c.lower() for c in self.registered}:
                return  # an invalid stop token: refused
            self.stopped_by = data
            self.registered.add(data)
            return
        self.acted.append(command)


def acted_on(text: str) -> list[Command]:
    """The commands the runner acts on in ``text`` (one stream, read alone)."""
    return Runner().read(text).acted
