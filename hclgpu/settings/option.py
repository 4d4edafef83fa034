"""One setting, defined once: its name, kind, default and help, where it may be given
(which commands take it as a flag, whether a configuration file or an editor may set it)
and how a value given on the command line combines with the configuration's.

Every setting is an :class:`Option` attribute of :class:`hclgpu.settings.Settings`; the
command-line flags, the configuration keys, the editor's settings and the README's table
are all made from these definitions.
"""

from __future__ import annotations

from hclgpu.settings.kinds import Kind

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Generic, TypeVar, overload

    T = TypeVar("T")

    class _Generic(Generic[T]):
        pass
else:

    class _Generic:
        def __class_getitem__(cls, item: object) -> type:
            return cls

    T = None


SECTIONS = {
    "cluster": "The cluster (the profile)",
    "targets": "Translation targets",
    "findings": "Which findings are reported",
    "files": "Which files are checked",
    "policies": "Team policies",
    "inputs": "Variables and file functions",
}
"""The sections of the README's table, in its order."""


class Option(_Generic[T]):
    """A setting's definition, and (as an attribute of a Settings object) its value there."""

    __slots__ = (
        "attr", "commands", "config", "default", "extends", "flags", "help", "kind", "lsp", "name",
        "resets", "section",
    )  # fmt: skip

    def __init__(
        self,
        kind: Kind,
        default: T,
        help: str,
        *,
        section: str,
        commands: tuple[str, ...] = (),
        config: bool = True,
        lsp: str | bool = True,
        flags: tuple[str, ...] = (),
        extends: bool = False,
        resets: tuple[str, ...] = (),
    ) -> None:
        self.kind = kind
        self.default = default
        self.help = help
        self.section = section
        self.commands = commands
        """The commands that take it as a flag."""
        self.config = config
        """Whether a configuration file may set it."""
        self.lsp: str | bool = lsp
        """Whether an editor may set it; a string is its key there when not the camelCase name."""
        self.flags = flags
        """Its flags, when not ``--<name>``."""
        self.extends = extends
        """Whether a value from the command line (or an editor) adds to the configuration's
        instead of replacing it (``--ignore`` adds codes to `ignore`)."""
        self.resets = resets
        """The options (attributes) a value given for the run clears from the configuration, as
        ruff's ``--select`` clears the configuration's `extend-select` too."""
        self.name = ""
        self.attr = ""

    def __set_name__(self, owner: type, attr: str) -> None:
        self.attr = attr
        self.name = attr.replace("_", "-")
        if self.section not in SECTIONS:
            raise ValueError(f"{attr}: unknown section {self.section!r}")

    if TYPE_CHECKING:

        @overload
        def __get__(self, instance: None, owner: type) -> Option[T]: ...

        @overload
        def __get__(self, instance: object, owner: type) -> T: ...

        def __get__(self, instance: object, owner: type) -> object: ...

    else:

        def __get__(self, instance, owner):
            if instance is None:
                return self
            return instance._values.get(self.attr, self.default)

    @property
    def lsp_key(self) -> str | None:
        """The key an editor sets it by, or None."""
        if self.lsp is False:
            return None
        if isinstance(self.lsp, str):
            return self.lsp
        head, *rest = self.name.split("-")
        return head + "".join(word.capitalize() for word in rest)

    @property
    def cli_flags(self) -> tuple[str, ...]:
        return self.flags or (f"--{self.name}",)
