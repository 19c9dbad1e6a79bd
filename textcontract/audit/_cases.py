"""Reading case files: baselines, variants, expectations and changes, every problem kept."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from textcontract._files import path_problem
from textcontract._yaml import Path as KeyPath
from textcontract._yaml import load_yaml
from textcontract.audit._config import join_display
from textcontract.audit._fields import FieldReader, relocate
from textcontract.audit._model import (
    DEFAULT_FAMILY,
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
from textcontract.inputs import load_context_file, load_document_file, read_text_file
from textcontract.model import BODY, Context, Document, FactValue, Severity, validate_facts
from textcontract.strength import ProbeClass

__all__ = ["CaseReader"]

_CASE_KEYS = ("id", "group", "description", "baseline", "variants")
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
        return resolved, join_display(shown, reference)

    def document(
        self, reader: FieldReader, value: Any, path: KeyPath, folder: Path, shown: str
    ) -> Document | None:
        if isinstance(value, str):
            found = self.inside(reader, value, path, folder, shown)
            if found is None:
                return None
            try:
                return load_document_file(found[0], found[1])
            except InputError as error:
                reader.problems.extend(error.problems)
                return None
        if isinstance(value, dict):
            try:
                return Document.from_json(value, reader.file)
            except InputError as error:
                reader.problems.extend(relocate(error, reader.positions, path))
                return None
        reader.problem(path, "expected a document file path or an inline document (JSON form)")
        return None

    def context(
        self, reader: FieldReader, value: Any, path: KeyPath, folder: Path, shown: str
    ) -> Context | None:
        if isinstance(value, str):
            found = self.inside(reader, value, path, folder, shown)
            if found is None:
                return None
            try:
                return load_context_file(found[0], found[1])
            except InputError as error:
                reader.problems.extend(error.problems)
                return None
        if isinstance(value, dict):
            try:
                return Context.from_json(value, reader.file)
            except InputError as error:
                reader.problems.extend(relocate(error, reader.positions, path))
                return None
        reader.problem(path, "expected a context file path or an inline context (JSON form)")
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
        reader = FieldReader(shown, positions)
        fields = reader.mapping(
            {} if data is None else data, (), _CASE_KEYS, required=("id", "baseline", "variants")
        )
        if fields is None:
            self.problems.extend(reader.problems)
            return None
        case_id = reader.identifier(fields["id"], ("id",), "case") if "id" in fields else None
        group = reader.string(fields["group"], ("group",)) if "group" in fields else None
        if "description" in fields:
            reader.string(fields["description"], ("description",))
        folder, folder_shown = path.parent, os.path.dirname(shown)
        document, context = self.baseline(reader, fields, folder, folder_shown)
        variants = self.variants(reader, fields, folder, folder_shown)
        self.problems.extend(reader.problems)
        if document is None or context is None:
            return None
        # a case with problems is still returned, so its trials are built and checked too
        return Case(case_id or "", group, shown, document, context, variants, reader.at(("id",)))

    def baseline(
        self, reader: FieldReader, fields: dict[str, Any], folder: Path, shown: str
    ) -> tuple[Document | None, Context | None]:
        """The baseline document and context (the empty context when none is given)."""
        if "baseline" not in fields:
            return None, None
        baseline = reader.mapping(
            fields["baseline"], ("baseline",), _BASELINE_KEYS, required=("document",)
        )
        if baseline is None or "document" not in baseline:
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
        self, reader: FieldReader, fields: dict[str, Any], folder: Path, shown: str
    ) -> tuple[Variant, ...]:
        """The case's valid variants, in file order; duplicate ids are reported."""
        if "variants" not in fields:
            return ()
        found: list[Variant] = []
        seen: dict[str, int] = {}
        for index, raw in enumerate(reader.sequence(fields["variants"], ("variants",)) or []):
            variant = self.variant(reader, raw, ("variants", index), folder, shown)
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

    def variant(
        self, reader: FieldReader, raw: Any, path: KeyPath, folder: Path, shown: str
    ) -> Variant | None:
        start = len(reader.problems)
        fields = reader.mapping(raw, path, _VARIANT_KEYS, required=("id", "relation"))
        if fields is None:
            return None

        def at(name: str) -> KeyPath:
            return (*path, name)

        variant_id = (
            reader.identifier(fields["id"], at("id"), "variant") if "id" in fields else None
        )
        relation = (
            reader.choice(fields["relation"], at("relation"), Relation)
            if "relation" in fields
            else None
        )
        validity = Validity.UNREVIEWED
        if "validity" in fields:
            validity = reader.choice(fields["validity"], at("validity"), Validity) or validity
        provenance = self.provenance(reader, fields, path, validity)
        family = DEFAULT_FAMILY
        if "family" in fields:
            family = reader.string(fields["family"], at("family")) or family
        probe_class = ProbeClass.DEFECT
        if "class" in fields:
            probe_class = reader.choice(fields["class"], at("class"), ProbeClass) or probe_class
        severity = (
            reader.choice(fields["severity"], at("severity"), Severity)
            if "severity" in fields
            else None
        )
        canary = reader.boolean(fields["canary"], at("canary")) if "canary" in fields else False
        if canary and relation is Relation.PRESERVE:
            reader.problem(at("canary"), "only violations can be canaries")
        if "description" in fields:
            reader.string(fields["description"], at("description"))
        expect = self.expectations(reader, fields, path, relation)
        trials = self.trials(reader, fields, path, folder, shown)
        if len(reader.problems) > start or variant_id is None or relation is None:
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
            reader.problem((*path, "provenance"), "provenance must be a string")
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
        items = reader.sequence(fields["expect"], at)
        if items is None:
            return ()
        if not items and relation is Relation.VIOLATION:
            reader.problem(at, "a violation needs at least one expectation")
        found = []
        for index, item in enumerate(items):
            expectation = self.expectation(reader, item, (*at, index))
            if expectation is not None:
                found.append(expectation)
        return tuple(found)

    def expectation(self, reader: FieldReader, item: Any, path: KeyPath) -> Expectation | None:
        entry = reader.mapping(item, path, _EXPECT_KEYS)
        if entry is None:
            return None
        missing = [key for key in _EXPECT_KEYS if key not in entry]
        if missing:
            reader.problem(
                path,
                f"an expectation needs rule, code and scope (missing: {', '.join(missing)})",
            )
            return None
        rule, code, scope = (reader.string(entry[key], (*path, key)) for key in _EXPECT_KEYS)
        if rule is None or code is None or scope is None:
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
        items = reader.sequence(fields["trials"], (*path, "trials"))
        if items is None:
            return ()
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
        start = len(reader.problems)
        fields = reader.mapping({} if raw is None else raw, path, _CHANGE_KEYS)
        if fields is None:
            return None
        document = None
        if "document" in fields:
            document = self.document(reader, fields["document"], (*path, "document"), folder, shown)
        replacements = self.replacements(reader, fields, path)
        claims, claims_locations = self.per_name_facts(reader, fields, path, "claims")
        context, _ = self.per_name_facts(reader, fields, path, "context")
        removals = self.removals(reader, fields, path)
        if len(reader.problems) > start:
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
        items = reader.sequence(fields["replace"], (*path, "replace")) or []
        found = []
        for index, item in enumerate(items):
            at: KeyPath = (*path, "replace", index)
            entry = reader.mapping(item, at, _REPLACE_KEYS, required=("find", "with"))
            if entry is None or "find" not in entry or "with" not in entry:
                continue
            surface = BODY
            if "surface" in entry:
                surface = reader.string(entry["surface"], (*at, "surface")) or BODY
            find, replacement = entry["find"], entry["with"]
            if not isinstance(find, str) or not find:
                reader.problem((*at, "find"), "find must be a non-empty string")
                continue
            if not isinstance(replacement, str):
                reader.problem((*at, "with"), "with must be a string")
                continue
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
            reader.problem(at, f"'{part}' must map names to facts")
            return {}, {}
        found: dict[str, dict[str, FactValue]] = {}
        locations: dict[str, Location] = {}
        for name, facts in value.items():
            problems: list[Problem] = []
            found[name] = validate_facts(facts, (*at, name), reader.file, problems)
            locations[name] = reader.at_key((*at, name))
            if problems:
                reader.problems.extend(relocate(InputError(problems), reader.positions, ()))
        return found, locations

    @staticmethod
    def removals(reader: FieldReader, fields: dict[str, Any], path: KeyPath) -> tuple[Removal, ...]:
        if "remove_context" not in fields:
            return ()
        at: KeyPath = (*path, "remove_context")
        value = fields["remove_context"]
        if not isinstance(value, dict):
            reader.problem(at, "'remove_context' must map snapshot names to lists of keys")
            return ()
        found = []
        for state, keys in value.items():
            items = reader.sequence(keys, (*at, state)) or []
            for index, key in enumerate(items):
                if not isinstance(key, str) or not key:
                    reader.problem((*at, state, index), "expected a fact key (a non-empty string)")
                    continue
                found.append(Removal(state, key, reader.at((*at, state, index))))
        return tuple(found)
