"""What rules read during one check run, with each surface normalized at most once."""

from __future__ import annotations

from textcontract.model import Context, Document, Surface
from textcontract.text import (
    Profile,
    ScriptShare,
    fold_text,
    normalize,
    unspaced_share,
    unsupported_share,
    word_tokens,
)

__all__ = ["Subject"]


class Subject:
    """A (document, context) pair plus per-run caches shared by every rule.

    SPEC §4 promises one normalization per surface and profile per check run;
    the caches here are that promise. A Subject lives for one run only.
    """

    __slots__ = (
        "_history",
        "_normalized",
        "_shares",
        "_token_sets",
        "_tokens",
        "_unsupported",
        "context",
        "document",
    )

    def __init__(self, document: Document, context: Context) -> None:
        self.document = document
        self.context = context
        self._normalized: dict[tuple[str, Profile], str] = {}
        self._tokens: dict[str, tuple[str, ...]] = {}
        self._token_sets: dict[str, frozenset[str]] = {}
        self._shares: dict[str, ScriptShare] = {}
        self._unsupported: dict[str, ScriptShare | None] = {}
        self._history: dict[tuple[str, ...], int] | None = None

    def normalized(self, surface: Surface, profile: Profile) -> str:
        key = (surface.name, profile)
        text = self._normalized.get(key)
        if text is None:
            if profile is Profile.FOLDED:
                # Derived from the text profile, which token rules need anyway (same result).
                text = fold_text(self.normalized(surface, Profile.TEXT))
            else:
                text = normalize(surface.text, profile)
            self._normalized[key] = text
        return text

    def tokens(self, surface: Surface) -> tuple[str, ...]:
        tokens = self._tokens.get(surface.name)
        if tokens is None:
            tokens = word_tokens(self.normalized(surface, Profile.TEXT))
            self._tokens[surface.name] = tokens
        return tokens

    def token_set(self, surface: Surface) -> frozenset[str]:
        found = self._token_sets.get(surface.name)
        if found is None:
            found = frozenset(self.tokens(surface))
            self._token_sets[surface.name] = found
        return found

    def script_share(self, surface: Surface) -> ScriptShare:
        share = self._shares.get(surface.name)
        if share is None:
            share = unspaced_share(self.normalized(surface, Profile.TEXT))
            self._shares[surface.name] = share
        return share

    def unsupported_share(self, surface: Surface) -> ScriptShare | None:
        """The surface's script share when it makes token rules undetermined, else None."""
        name = surface.name
        if name in self._unsupported:
            return self._unsupported[name]
        share = self._shares.get(name)
        if share is not None:
            found = share if share.unsupported else None
        else:
            found = unsupported_share(self.normalized(surface, Profile.TEXT))
        self._unsupported[name] = found
        return found

    def history_index(self) -> dict[tuple[str, ...], int]:
        """Each distinct token sequence of the context's history and its first index."""
        if self._history is None:
            index: dict[tuple[str, ...], int] = {}
            for position, text in enumerate(self.context.history):
                index.setdefault(word_tokens(normalize(text, Profile.TEXT)), position)
            self._history = index
        return self._history
