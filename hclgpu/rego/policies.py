"""The policy set of a run: the `.rego` files of the ``--policy`` directories and the rules to ask.

Conventions are conftest's: in the wanted packages (``main`` unless ``--namespace`` says
otherwise), rules named ``deny``, ``warn`` and ``violation``, alone or with a suffix
(``deny_privileged``), give the findings. Rule names are read from the rule heads, so the
engine is asked for exactly those rules and never evaluates helper rules the findings do not
use. Files named ``*_test.rego`` are the policies' own unit tests (``opa test``) and are left
out. Rego v1 is the language, as in OPA 1.0 and conftest 0.56: a v0 head such as
``deny[msg] {`` is refused here, since rego-cpp would read it as a different rule.

A :class:`PolicySet` is plain, picklable data (worker processes receive it) with a
fingerprint of every file's text, part of each check-cache key.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from hclgpu.codes.base import Code
from hclgpu.codes.policies import HG401, HG402, HG410, HG413
from hclgpu.diagnostics import Sink
from hclgpu.rego import DEFAULT_NAMESPACES, DEFAULT_TIMEOUT
from hclgpu.source import SourceFile

FINDING_RULE = re.compile(
    r"^[ \t]*((deny|warn|violation)(?:_\w+)?)\b(?=[ \t]*(?:contains\b|if\b|:?=|\{|\[))", re.M
)
_PACKAGE = re.compile(r"^[ \t]*package[ \t]+([A-Za-z_][\w.]*)", re.M)
_V0_HEAD = re.compile(r"^[ \t]*(?:deny|warn|violation)(?:_\w+)?[ \t]*(\[)", re.M)


@dataclass(frozen=True, slots=True)
class Module:
    """One policy file: its text, its package and the finding rules its heads declare."""

    path: str
    text: str
    package: str
    rules: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PolicySet:
    modules: tuple[Module, ...]
    namespaces: tuple[str, ...] = DEFAULT_NAMESPACES
    """Packages whose rules give findings; empty means every package (``--all-namespaces``)."""
    timeout: float = DEFAULT_TIMEOUT
    fingerprint: str = field(default="", compare=False)

    @property
    def rules(self) -> tuple[tuple[str, str], ...]:
        """(package, rule) of every finding rule to ask for, in a stable order."""
        found = {
            (module.package, rule)
            for module in self.modules
            if not self.namespaces or module.package in self.namespaces
            for rule in module.rules
        }
        return tuple(sorted(found))


def severity_of(rule: str) -> Code:
    """HG402 for ``warn`` rules, HG401 for ``deny`` and ``violation`` rules."""
    return HG402 if rule.startswith("warn") else HG401


def load_policies(
    places: Sequence[str], namespaces: Sequence[str], timeout: float, sink: Sink
) -> PolicySet | None:
    """The policy set of these directories (or single files); None, with HG413 or HG410 in
    ``sink``, when one cannot be used."""
    modules: list[Module] = []
    for place in places:
        paths = _rego_files(place, sink)
        if paths is None:
            return None
        for path in paths:
            module = _read(path, sink)
            if module is None:
                return None
            modules.append(module)
    if not modules:
        return None
    fingerprint = _fingerprint(modules, namespaces, timeout)
    policies = PolicySet(tuple(modules), tuple(namespaces), timeout, fingerprint)
    if not policies.rules:
        wanted = ", ".join(f"`{n}`" for n in namespaces) or "any package"
        sink.emit(
            HG413,
            f"no policy in {wanted} has a `deny`, `warn` or `violation` rule",
            SourceFile(places[0], ""),
            help="name the package with --namespace, or use --all-namespaces",
        )
        return None
    return policies


def _rego_files(place: str, sink: Sink) -> list[str] | None:
    if os.path.isfile(place):
        return [place]
    if not os.path.isdir(place):
        sink.emit(HG413, f"policy directory `{place}` does not exist", SourceFile(place, ""))
        return None
    found: list[str] = []
    for folder, folders, files in os.walk(place):
        folders[:] = sorted(d for d in folders if not d.startswith("."))
        found.extend(
            os.path.join(folder, name)
            for name in sorted(files)
            if name.endswith(".rego") and not name.endswith("_test.rego")
        )
    if not found:
        sink.emit(HG413, f"no policy files (*.rego) in directory `{place}`", SourceFile(place, ""))
        return None
    return found


def _read(path: str, sink: Sink) -> Module | None:
    from hclgpu.io.files import read_text

    shown = os.path.normpath(path)
    try:
        text = read_text(path)
    except (OSError, ValueError) as error:
        sink.emit(HG413, f"cannot read policy file `{shown}`: {error}", SourceFile(shown, ""))
        return None
    source = SourceFile(shown, text)
    package = _PACKAGE.search(text)
    if package is None:
        sink.emit(HG410, "the policy has no `package` declaration", source, None)
        return None
    old = _V0_HEAD.search(text)
    if old is not None:
        from hclgpu.source import Span

        rule = text[old.start() : old.start(1)].strip()
        sink.emit(
            HG410,
            f"`{rule}[...]` is a Rego v0 rule head",
            source,
            Span(old.start(1), old.start(1) + 1),
            help=f"write `{rule} contains msg if {{ ... }}` (Rego v1; `opa fmt --v0-v1` rewrites a file)",
        )
        return None
    rules = tuple(dict.fromkeys(match.group(1) for match in FINDING_RULE.finditer(text)))
    return Module(shown, text, package.group(1), rules)


def _fingerprint(modules: Sequence[Module], namespaces: Sequence[str], timeout: float) -> str:
    digest = hashlib.sha256(repr((tuple(namespaces), timeout)).encode())
    for module in modules:
        digest.update(f"\0{module.path}\0".encode())
        digest.update(module.text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()
