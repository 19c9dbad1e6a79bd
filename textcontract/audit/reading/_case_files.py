"""Reading case files: baselines, variants, expectations and changes, every problem kept."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from textcontract._files import path_problem
from textcontract._yaml import Positions, load_yaml
from textcontract.audit.reading._config import AUDIT_FILE, join_display
from textcontract.audit.reading._model import (
    DEFAULT_FAMILY,
    ID_PATTERN,
    Case,
    Change,
    Expectation,
    Relation,
    Removal,
    Replacement,
    Validity,
    Variant,
)
from textcontract.errors import InputError, Location, Problem
from textcontract.fields import MISSING, FieldReader, KeyPath, type_name
from textcontract.inputs import load_context_file, load_document_file, read_text_file
from textcontract.model import BODY, Context, Document, FactValue, Severity, validate_facts
from textcontract.strength import Exposure, ProbeClass

__all__ = ["CaseReader", "case_files"]

T = TypeVar("T")

_CASE_KEYS = ("id", "group", "description", "exposure", "baseline", "variants")
_BASELINE_KEYS = ("document", "context")
_VARIANT_KEYS = (
    "id",
    "relation",
    "validity",
    "provenance",
    "family",
    "class",
    "severity",
    "canary",
    "exposure",
    "description",
    "expect",
    "change",
    "trials",
)
_CHANGE_KEYS = ("claims", "context", "remove_context", "replace", "document")
_REPLACE_KEYS = ("surface", "find", "with")
_EXPECT_KEYS = ("rule", "code", "scope")


class CaseReader:
    """Reads the case files of one corpus folder; problems collect in ``problems``.

    ``rules`` maps the contract's rule ids to their severities (``None`` when the
    contract could not be loaded: expectations are then not checked against it).
    """

    def __init__(
        self,
        root: Path,
        display: str,
        rules: Mapping[str, Severity] | None,
        allow_missing_rules: bool,
        problems: list[Problem],
    ) -> None:
        self.root = root
        self.resolved_root = root.resolve()
        self.display = display
        self.rules = rules
        self.allow_missing_rules = allow_missing_rules
        self.problems = problems
        self.on_tree: Callable[[Any], None] | None = None
        """Called with the YAML value of every case file read."""
        self.on_quote: Callable[[str, Path], None] | None = None
        """Called with (reference, resolved path) for each file a case quotes, before reading it."""

    # -- files ------------------------------------------------------------------------------

    def inside(
        self, reader: FieldReader, reference: str, path: KeyPath, folder: Path, shown: str
    ) -> tuple[Path, str] | None:
        """A file named relative to a case file; it must resolve (symlinks followed) inside DIR."""
        unusable = path_problem(reference)
        if unusable is not None:
            reader.problem(path, unusable)
            return None
        resolved = (folder / reference).resolve()
        if not resolved.is_relative_to(self.resolved_root):
            reader.problem(
                path,
                f"{reference!r} resolves outside the corpus folder {self.display!r} "
                "(symlinks followed); a corpus may only quote its own files",
            )
            return None
        if not resolved.is_file():
            reader.problem(path, f"{reference!r} does not exist (or is not a file)")
            return None
        if self.on_quote is not None:
            self.on_quote(reference, resolved)
        return resolved, join_display(shown, reference)

    def document(
        self, reader: FieldReader, value: Any, path: KeyPath, folder: Path, shown: str
    ) -> Document | None:
        """A document: a file named relative to the case file, or inline (JSON form)."""
        return self._quoted(
            reader, value, (path, folder, shown), "document", load_document_file, Document.from_json
        )

    def context(
        self, reader: FieldReader, value: Any, path: KeyPath, folder: Path, shown: str
    ) -> Context | None:
        """A context: a file named relative to the case file, or inline (JSON form)."""
        return self._quoted(
            reader, value, (path, folder, shown), "context", load_context_file, Context.from_json
        )

    def _quoted(
        self,
        reader: FieldReader,
        value: Any,
        place: tuple[KeyPath, Path, str],
        what: str,
        from_file: Callable[[Path, str], T],
        from_json: Callable[[Any, str | None], T],
    ) -> T | None:
        path, folder, shown = place
        if isinstance(value, dict):
            try:
                return from_json(value, reader.file)
            except InputError as error:
                reader.absorb(error, path)
                return None
        if not isinstance(value, str):
            reader.problem(path, f"expected a {what} file path or an inline {what} (JSON form)")
            return None
        found = self.inside(reader, value, path, folder, shown)
        if found is None:
            return None
        try:
            return from_file(*found)
        except InputError as error:  # problems inside the quoted file name that file
            reader.problems.extend(error.problems)
            return None

    # -- cases ------------------------------------------------------------------------------

    def case(self, path: Path, shown: str) -> Case | None:
        if not path.resolve().is_relative_to(self.resolved_root):
            self.problems.append(
                Problem(
                    "the case file resolves outside the corpus folder (symlinks followed)",
                    Location(shown),
                )
            )
            return None
        try:
            data, positions = load_yaml(read_text_file(path, shown), shown)
        except InputError as error:
            self.problems.extend(error.problems)
            return None
        if self.on_tree is not None:
            self.on_tree(data)
        return self.case_tree(data, positions, path, shown)

    def case_tree(
        self,
        data: Any,
        positions: Positions | None,
        path: Path,
        shown: str,
        outline: Sequence[Variant] | None = None,
    ) -> Case | None:
        """The case a case file's YAML value holds (``positions`` ``None``: no line numbers,
        and the locations the case keeps name no key path: it was validated before).

        With ``outline`` — the case's variants as validated before, without their changes
        (a cache entry's outline) — only each variant's changes are read from the value;
        its other fields are the outline's (:meth:`outlined_variants`)."""
        reader = FieldReader(shown, positions, names=positions is not None)
        fields = reader.mapping(
            {} if data is None else data,
            (),
            required=("id", "baseline", "variants"),
            optional=_CASE_KEYS,
        )
        case_id = reader.identifier(fields["id"], ("id",), "case", ID_PATTERN)
        group = reader.string(fields.get("group", MISSING), ("group",), None, blank=False)
        reader.string(fields.get("description", MISSING), ("description",), blank=False)
        exposure = reader.choice(
            fields.get("exposure", MISSING), ("exposure",), Exposure, Exposure.KNOWN
        )
        folder, folder_shown = path.parent, os.path.dirname(shown)
        document, context = self.baseline(reader, fields, folder, folder_shown)
        where = (folder, folder_shown)
        if outline is None:
            variants = self.variants(reader, fields, where, exposure)
        else:
            variants = self.outlined_variants(reader, fields, where, outline)
        self.problems.extend(reader.problems)
        if document is None or context is None:
            return None
        # a case with problems is still returned, so its trials are built and checked too
        return Case(case_id or "", group, shown, document, context, variants, reader.at(("id",)))

    def baseline(
        self, reader: FieldReader, fields: dict[str, Any], folder: Path, shown: str
    ) -> tuple[Document | None, Context | None]:
        """The baseline document and context (the empty context when none is given)."""
        baseline = reader.mapping(
            fields["baseline"], ("baseline",), required=("document",), optional=_BASELINE_KEYS
        )
        if baseline["document"] is MISSING:
            return None, None
        document = self.document(
            reader, baseline["document"], ("baseline", "document"), folder, shown
        )
        context: Context | None = Context.empty()
        if "context" in baseline:
            context = self.context(
                reader, baseline["context"], ("baseline", "context"), folder, shown
            )
        return document, context

    def variants(
        self,
        reader: FieldReader,
        fields: dict[str, Any],
        where: tuple[Path, str],
        exposure: Exposure,
    ) -> tuple[Variant, ...]:
        """The case's valid variants, in file order; duplicate ids are reported.

        ``where`` is the case file's folder and its display name; ``exposure`` is the
        case's, which a variant may override.
        """
        folder, shown = where
        found: list[Variant] = []
        seen: dict[str, int] = {}
        for index, raw in enumerate(reader.sequence(fields["variants"], ("variants",))):
            variant = self.variant(reader, raw, ("variants", index), folder, shown)
            if variant is not None and isinstance(raw, dict) and "exposure" in raw:
                at = ("variants", index, "exposure")
                variant = replace(variant, exposure=reader.choice(raw["exposure"], at, Exposure))
            elif variant is not None:
                variant = replace(variant, exposure=exposure)
            if variant is None:
                continue
            if variant.id in seen:
                reader.problem(
                    ("variants", index, "id"),
                    f"duplicate variant id {variant.id!r} (also variants[{seen[variant.id]}])",
                )
                continue
            seen[variant.id] = index
            found.append(variant)
        return tuple(found)

    def outlined_variants(
        self,
        reader: FieldReader,
        fields: dict[str, Any],
        where: tuple[Path, str],
        outline: Sequence[Variant],
    ) -> tuple[Variant, ...]:
        """The variants of a case validated before: ``outline``'s, each with the changes
        its entry in ``fields`` holds and the location :meth:`variant` gives it.

        Every variant must be there, in order, by id; anything else is a problem (the
        caller then reads the case as it would without an outline).
        """
        folder, shown = where
        raws = fields["variants"]
        if not isinstance(raws, list) or len(raws) != len(outline):
            reader.problem(("variants",), "the variants are not those the outline names")
            return ()
        found = []
        for index, (raw, variant) in enumerate(zip(raws, outline, strict=True)):
            path: KeyPath = ("variants", index)
            if not isinstance(raw, dict) or raw.get("id") != variant.id:
                reader.problem(path, "the variant is not the one the outline names")
                continue
            changes = self.trials(reader, raw, path, folder, shown)
            found.append(replace(variant, trials=changes, location=reader.at(path)))
        return tuple(found)

    def variant(
        self, reader: FieldReader, raw: Any, path: KeyPath, folder: Path, shown: str
    ) -> Variant | None:
        start = reader.mark()
        fields = reader.mapping(raw, path, required=("id", "relation"), optional=_VARIANT_KEYS)
        if not isinstance(raw, dict):
            return None

        def at(name: str) -> KeyPath:
            return (*path, name)

        def given(name: str) -> Any:
            return fields.get(name, MISSING)

        variant_id = reader.identifier(fields["id"], at("id"), "variant", ID_PATTERN)
        relation = reader.choice(fields["relation"], at("relation"), Relation, None)
        validity = reader.choice(given("validity"), at("validity"), Validity, Validity.UNREVIEWED)
        provenance = self.provenance(reader, fields, path, validity)
        family = reader.string(given("family"), at("family"), DEFAULT_FAMILY, blank=False)
        probe_class = reader.choice(given("class"), at("class"), ProbeClass, ProbeClass.DEFECT)
        severity = reader.choice(given("severity"), at("severity"), Severity, None)
        canary = reader.boolean(given("canary"), at("canary"))
        if canary and relation is Relation.PRESERVE:
            reader.problem(at("canary"), "only violations can be canaries")
        reader.string(given("description"), at("description"), blank=False)
        expect = self.expectations(reader, fields, path, relation)
        trials = self.trials(reader, fields, path, folder, shown)
        if reader.failed_since(start) or variant_id is None or relation is None:
            return None
        return Variant(
            id=variant_id,
            relation=relation,
            validity=validity,
            provenance=provenance,
            family=family,
            probe_class=probe_class,
            severity=severity,
            canary=canary,
            expect=expect,
            trials=trials,
            location=reader.at(path),
        )

    @staticmethod
    def provenance(
        reader: FieldReader, fields: dict[str, Any], path: KeyPath, validity: Validity
    ) -> str | None:
        value = fields.get("provenance")
        if value is not None and not isinstance(value, str):
            reader.problem((*path, "provenance"), f"expected a string, got {type_name(value)}")
            return None
        if validity is Validity.VALID and (value is None or not value.strip()):
            where = (*path, "provenance") if "provenance" in fields else (*path, "validity")
            reader.problem(
                where,
                "a 'valid' label needs a non-blank provenance (who wrote and reviewed it, how)",
            )
        return value

    def expectations(
        self, reader: FieldReader, fields: dict[str, Any], path: KeyPath, relation: Relation | None
    ) -> tuple[Expectation, ...]:
        at: KeyPath = (*path, "expect")
        if relation is Relation.PRESERVE:
            if "expect" in fields:
                reader.problem(at, "a preserve variant takes no expectations (remove 'expect')")
            return ()
        if "expect" not in fields:
            if relation is Relation.VIOLATION:
                reader.problem(path, "a violation needs expectations ('expect' is missing)")
            return ()
        if not isinstance(fields["expect"], list):
            reader.sequence(fields["expect"], at)
            return ()
        items = fields["expect"]
        if not items and relation is Relation.VIOLATION:
            reader.problem(at, "a violation needs at least one expectation")
        found = []
        for index, item in enumerate(items):
            expectation = self.expectation(reader, item, (*at, index))
            if expectation is not None:
                found.append(expectation)
        return tuple(found)

    def expectation(self, reader: FieldReader, item: Any, path: KeyPath) -> Expectation | None:
        start = reader.mark()
        entry = reader.mapping(item, path, required=_EXPECT_KEYS)
        rule, code, scope = (
            reader.string(entry[key], (*path, key), blank=False) for key in _EXPECT_KEYS
        )
        if reader.failed_since(start):
            return None
        if self.rules is not None and rule not in self.rules and not self.allow_missing_rules:
            reader.problem(
                (*path, "rule"),
                f"the contract has no rule {rule!r}",
                "pass --allow-missing-rules to count such expectations as not-applicable",
            )
            return None
        return Expectation(rule, code, scope)

    def trials(
        self, reader: FieldReader, fields: dict[str, Any], path: KeyPath, folder: Path, shown: str
    ) -> tuple[Change, ...]:
        if "change" in fields and "trials" in fields:
            reader.problem(path, "give either 'change' or 'trials', not both")
            return ()
        if "change" in fields:
            change = self.change(reader, fields["change"], (*path, "change"), folder, shown)
            return () if change is None else (change,)
        if "trials" not in fields:
            reader.problem(path, "a variant needs 'change' (or 'trials')")
            return ()
        if not isinstance(fields["trials"], list):
            reader.sequence(fields["trials"], (*path, "trials"))
            return ()
        items = fields["trials"]
        if not items:
            reader.problem((*path, "trials"), "trials must not be empty (one change per trial)")
            return ()
        changes = []
        for index, item in enumerate(items):
            change = self.change(reader, item, (*path, "trials", index), folder, shown)
            if change is not None:
                changes.append(change)
        return tuple(changes)

    def change(
        self, reader: FieldReader, raw: Any, path: KeyPath, folder: Path, shown: str
    ) -> Change | None:
        start = reader.mark()
        fields = reader.mapping({} if raw is None else raw, path, optional=_CHANGE_KEYS)
        document = None
        if "document" in fields:
            document = self.document(reader, fields["document"], (*path, "document"), folder, shown)
        replacements = self.replacements(reader, fields, path)
        claims, claims_locations = self.per_name_facts(reader, fields, path, "claims")
        context, _ = self.per_name_facts(reader, fields, path, "context")
        removals = self.removals(reader, fields, path)
        if reader.failed_since(start):
            return None
        return Change(
            location=reader.at(path),
            document=document,
            replace=replacements,
            claims=claims,
            claims_locations=claims_locations,
            context=context,
            remove_context=removals,
        )

    @staticmethod
    def replacements(
        reader: FieldReader, fields: dict[str, Any], path: KeyPath
    ) -> tuple[Replacement, ...]:
        if "replace" not in fields:
            return ()
        items = reader.sequence(fields["replace"], (*path, "replace"))
        found = []
        for index, item in enumerate(items):
            at: KeyPath = (*path, "replace", index)
            start = reader.mark()
            entry = reader.mapping(item, at, required=("find", "with"), optional=_REPLACE_KEYS)
            surface = reader.string(entry.get("surface", MISSING), (*at, "surface"), BODY)
            find = reader.string(entry["find"], (*at, "find"))
            replacement = reader.string(entry["with"], (*at, "with"), empty=True)
            if not reader.failed_since(start):
                found.append(Replacement(surface, find, replacement, reader.at(at)))
        return tuple(found)

    @staticmethod
    def per_name_facts(
        reader: FieldReader, fields: dict[str, Any], path: KeyPath, part: str
    ) -> tuple[dict[str, dict[str, FactValue]], dict[str, Location]]:
        """``claims`` (surface → facts) or ``context`` (snapshot → facts)."""
        if part not in fields:
            return {}, {}
        at: KeyPath = (*path, part)
        value = fields[part]
        if not isinstance(value, dict):
            reader.problem(at, f"expected a mapping of names to facts, got {type_name(value)}")
            return {}, {}
        found: dict[str, dict[str, FactValue]] = {}
        locations: dict[str, Location] = {}
        for name, facts in value.items():
            problems: list[Problem] = []
            found[name] = validate_facts(facts, (*at, name), reader.file, problems)
            locations[name] = reader.at_key((*at, name))
            if problems:
                reader.absorb(InputError(problems))
        return found, locations

    @staticmethod
    def removals(reader: FieldReader, fields: dict[str, Any], path: KeyPath) -> tuple[Removal, ...]:
        if "remove_context" not in fields:
            return ()
        at: KeyPath = (*path, "remove_context")
        value = fields["remove_context"]
        if not isinstance(value, dict):
            reader.problem(
                at, f"expected a mapping of snapshot names to lists of keys, got {type_name(value)}"
            )
            return ()
        found = []
        for state, keys in value.items():
            items = reader.sequence(keys, (*at, state))
            for index, key in enumerate(items):
                if not isinstance(key, str) or not key:
                    reader.problem((*at, state, index), "expected a fact key (a non-empty string)")
                    continue
                found.append(Removal(state, key, reader.at((*at, state, index))))
        return tuple(found)


def case_files(root: Path, display: str, problems: list[Problem]) -> list[tuple[str, str]]:
    """Every ``*.yaml`` under DIR except the top-level audit.yaml, sorted.

    Each is ``(path relative to DIR, resolved path)``; plain strings, since a large corpus
    has many. A ``*.yaml`` that is not a regular file — a dangling symlink, a FIFO, a
    device — is a problem naming it: a case file must never be skipped silently.
    """
    top = os.path.realpath(root / AUDIT_FILE)
    found = []
    for path in root.rglob("*.yaml"):
        relative = path.relative_to(root).as_posix()
        problem = _not_a_case_file(path)
        if problem is not None:
            where = Location(join_display(display, relative))
            problems.append(Problem(f"case file {problem}", where))
        elif not path.is_dir() and (resolved := os.path.realpath(path)) != top:
            found.append((relative, resolved))
    found.sort()
    return found


def _not_a_case_file(path: Path) -> str | None:
    """Why a ``*.yaml`` path of the corpus is no case file, or None (a file, or a folder)."""
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if path.is_symlink():
            return f"is a symbolic link to {os.readlink(path)!r}, whose target fails: {reason}"
        return f"cannot be read: {reason}"
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return "is not a regular file (a FIFO, device or socket)"
