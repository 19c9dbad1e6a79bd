"""Rule types: one module per type, one registry, one base class for plugins."""

from textcontract.rules._base import (
    PATTERN_TIMEOUT,
    RULE_ERROR,
    SURFACE_MISSING,
    UNSUPPORTED_SCRIPT,
    Code,
    Options,
    PatternRule,
    RuleHeader,
    RuleType,
    SurfaceRule,
    TokenRule,
)
from textcontract.rules._configure import Configured, configure_options
from textcontract.rules._params import (
    ABSENT,
    REQUIRED,
    CompiledPattern,
    FactRef,
    Param,
    ParamProblem,
    ParamType,
)
from textcontract.rules._registry import (
    BUILTIN_TYPES,
    ENTRY_POINT_GROUP,
    Registry,
    RegistryError,
    default_registry,
)
from textcontract.rules._subject import Subject

__all__ = [
    "ABSENT",
    "BUILTIN_TYPES",
    "ENTRY_POINT_GROUP",
    "PATTERN_TIMEOUT",
    "REQUIRED",
    "RULE_ERROR",
    "SURFACE_MISSING",
    "UNSUPPORTED_SCRIPT",
    "Code",
    "CompiledPattern",
    "Configured",
    "FactRef",
    "Options",
    "Param",
    "ParamProblem",
    "ParamType",
    "PatternRule",
    "Registry",
    "RegistryError",
    "RuleHeader",
    "RuleType",
    "Subject",
    "SurfaceRule",
    "TokenRule",
    "configure_options",
    "default_registry",
]
