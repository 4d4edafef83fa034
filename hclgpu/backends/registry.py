"""The targets of ``hclgpu render``, by name, each loaded only when it is used.

A target is an object with the :class:`Target` shape, exported as ``TARGET`` by its
module; :data:`BUILT_IN` names the module of each built-in target, and a module is
imported the first time its target is asked for (as sqlglot loads its dialects), so
``hclgpu check`` never loads a back end. The command line (``--target`` choices, each
target's own flags, ``--nodes``), :func:`hclgpu.render` and the printing of artifacts all
come from here: adding a target is a package under ``backends/`` and one line in
:data:`BUILT_IN`, or :func:`register` at run time (a plug-in, a test).

This module imports only the standard library: building ``render``'s parser reads every
target, and must not import the compiler.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, fields
from importlib import import_module
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

if TYPE_CHECKING:
    from hclgpu.backends.target import Artifact, Lowering, RenderOptions
    from hclgpu.ir.models import Job

BUILT_IN = {
    "nomad": "hclgpu.backends.nomad",
    "kubernetes": "hclgpu.backends.kubernetes",
    "oci": "hclgpu.backends.oci",
    "docker": "hclgpu.backends.docker",
    "compose": "hclgpu.backends.compose",
}
"""Each built-in target and the module exporting it, in the order ``--help`` lists them."""
BUILT_IN_DEVICE_IDS = frozenset({"oci", "docker", "compose"})
"""The built-in targets that take planned device IDs, known without importing them: a
render of one target need not load the others to write its parser (a test keeps this
equal to their ``takes_device_ids``). No built-in target has flags of its own."""

_MODULES: dict[str, str] = dict(BUILT_IN)
OptionsT = TypeVar("OptionsT")
_LOADED: dict[str, Target] = {}


class Target(Protocol):
    """What ``hclgpu render --target NAME`` needs of a back end."""

    name: str
    """The ``--target`` value."""
    Options: type[Any]
    """A dataclass of the target's own options: each field is the ``dest`` of a flag that
    :meth:`add_arguments` adds, and :func:`options_from` fills it from the parsed flags."""
    takes_device_ids: bool
    """Whether ``render --nodes/--node`` plans the job and hands the chosen device IDs to
    :meth:`render` (``RenderOptions.device_ids``)."""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the target's own flags to ``render``'s parser (help text prefixed ``name:``)."""

    def render(self, job: Job, ctx: Lowering) -> list[Artifact]:
        """The artifacts of ``job``; what cannot be said goes to ``ctx`` as HG301/HG302."""

    def join(self, artifacts: list[Artifact]) -> str:
        """What ``render`` prints without ``--out``: every artifact, as one text."""


@dataclass(frozen=True, slots=True)
class NoOptions:
    """The options of a target that has none of its own."""


class BaseTarget:
    """Defaults for a :class:`Target`: no options of its own, no planned device IDs, and
    artifacts printed one after the other."""

    name: ClassVar[str]
    Options: ClassVar[type[Any]] = NoOptions
    takes_device_ids: ClassVar[bool] = False

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """No flags of its own."""

    def join(self, artifacts: list[Artifact]) -> str:
        """The artifacts' texts, one after the other."""
        return "".join(a.text for a in artifacts)


def names() -> list[str]:
    """Every target's name: the built-in ones in their order, then those registered."""
    return list(_MODULES)


def get(name: str) -> Target:
    """The target called ``name``, importing its module the first time (KeyError if none)."""
    target = _LOADED.get(name)
    if target is None:
        target = import_module(_MODULES[name]).TARGET
        _LOADED[name] = target
    return target


def targets() -> list[Target]:
    """Every target, loaded."""
    return [get(name) for name in names()]


def _built_in(name: str) -> bool:
    """Whether ``name`` is a built-in target as shipped (not replaced by a registered one)."""
    return BUILT_IN.get(name) == _MODULES[name]


def flag_targets() -> list[Target]:
    """The targets that may add flags to ``render``: the registered ones (the built-in
    targets take their options from the settings)."""
    return [get(name) for name in names() if not _built_in(name)]


def register(target: Target) -> None:
    """Make ``target`` available under its name, in place of any target of that name (a
    plug-in, a test); :func:`unregister` undoes it."""
    _MODULES[target.name] = f"<registered {target.name}>"  # its place in names(); never imported
    _LOADED[target.name] = target


def unregister(name: str) -> None:
    """Forget a registered target (a built-in one comes back as it was)."""
    _LOADED.pop(name, None)
    if name in BUILT_IN:
        _MODULES[name] = BUILT_IN[name]
    else:
        _MODULES.pop(name, None)


def render(job: Job, name: str, ctx: Lowering) -> list[Artifact]:
    """The artifacts of target ``name`` for ``job``; problems go to ``ctx``'s sink as HG3xx."""
    from hclgpu.gc_pause import paused_gc

    target = get(name)
    with paused_gc():  # documents are acyclic trees (see hclgpu.gc_pause)
        return target.render(job, ctx)


def options_from(target: Target, values: object) -> Any:
    """The target's :attr:`~Target.Options` from parsed flags (an ``argparse.Namespace``)."""
    return target.Options(**{f.name: getattr(values, f.name) for f in fields(target.Options)})


def render_options(name: str, **given: Any) -> RenderOptions:
    """The options of a translation by target ``name`` from keywords: those every target
    reads (the fields of RenderOptions) and the target's own, by field name (ValueError for
    one neither has)."""
    from hclgpu.backends.target import RenderOptions

    kind = get(name).Options
    own = {f.name for f in fields(kind)}
    shared = {f.name for f in fields(RenderOptions)} - {"target"}
    unknown = sorted(set(given) - own - shared)
    if unknown:
        known = ", ".join(sorted(own | shared))
        raise ValueError(f"{name} takes no option {unknown[0]!r}; its options: {known}")
    common = {k: v for k, v in given.items() if k not in own}
    return RenderOptions(**common, target=kind(**{k: v for k, v in given.items() if k in own}))


def options_of(given: object, kind: type[OptionsT]) -> OptionsT:
    """A target's own options as it was given them (``RenderOptions.target``): ``kind``'s
    defaults when none were; TypeError for another target's."""
    if given is None:
        return kind()
    if not isinstance(given, kind):
        raise TypeError(f"expected {kind.__name__}, not {type(given).__name__}")
    return given


def device_id_targets() -> list[str]:
    """The targets that take the device IDs a node plan chose (``render --nodes``)."""
    return [
        name
        for name in names()
        if (name in BUILT_IN_DEVICE_IDS if _built_in(name) else get(name).takes_device_ids)
    ]
