"""The HCL function library of Nomad's jobspec2 (``jobspec2/functions.go``).

Every name Nomad registers is here except ``can``, ``try`` and ``convert``, which need
unevaluated arguments or type expressions and belong to the evaluator. The functions
come from go-cty's stdlib, hashicorp/go-cty-funcs and zclconf/go-cty-yaml; each module
of this package reproduces one family with the upstream semantics and error messages:

===========  ===========================================================
module       functions
===========  ===========================================================
text         upper lower title strlen strrev reverse substr chomp indent
             trim* join sort split replace regex_replace format formatlist
collection   length element index coalesce* compact concat contains
             distinct chunklist flatten keys values lookup merge set*
             slice zipmap
numeric      abs ceil floor log pow signum max min parseint range
encoding     base64encode base64decode urlencode jsonencode jsondecode
             csvdecode
yaml_codec   yamlencode yamldecode
net          cidrhost cidrnetmask cidrsubnet cidrsubnets
crypto       md5 sha1 sha256 sha512 bcrypt rsadecrypt uuidv4 uuidv5
dates        formatdate timeadd
fs           abspath basename dirname file filebase64 fileexists fileset
             pathexpand (see :func:`file_functions`)
===========  ===========================================================

Calling: ``FUNCTIONS[name].check_arity(len(args))`` first (None when fine), then
``impl(*values)``. An :class:`FunctionError` (an :class:`EvalError`) carries HCL's
diagnostic detail as ``message``, its summary as ``summary`` ("Invalid function
argument" or "Error in function call") and the argument to point at as ``arg``.

Note that Nomad's ``reverse`` reverses a *string* (both names map to cty's string
``ReverseFunc``), ``index`` looks an element up by key, ``lookup`` requires its default,
and ``replace`` never treats ``/.../`` as a regular expression.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from functools import lru_cache
from importlib import import_module
from pathlib import Path

from hclgpu.eval.functions.base import Function, FunctionError, Param
from hclgpu.eval.functions.fs import file_functions

__all__ = ["FUNCTIONS", "Function", "FunctionError", "Param", "all_functions", "file_functions"]

MODULES: dict[str, list[str]] = {
    "text": [
        "chomp",
        "format",
        "formatlist",
        "indent",
        "join",
        "lower",
        "regex_replace",
        "replace",
        "reverse",
        "sort",
        "split",
        "strlen",
        "strrev",
        "substr",
        "title",
        "trim",
        "trimprefix",
        "trimspace",
        "trimsuffix",
        "upper",
    ],
    "collection": [
        "chunklist",
        "coalesce",
        "coalescelist",
        "compact",
        "concat",
        "contains",
        "distinct",
        "element",
        "flatten",
        "index",
        "keys",
        "length",
        "lookup",
        "merge",
        "setintersection",
        "setproduct",
        "setunion",
        "slice",
        "values",
        "zipmap",
    ],
    "numeric": ["abs", "ceil", "floor", "log", "max", "min", "parseint", "pow", "range", "signum"],
    "encoding": [
        "base64decode",
        "base64encode",
        "csvdecode",
        "jsondecode",
        "jsonencode",
        "urlencode",
    ],
    "yaml_codec": ["yamldecode", "yamlencode"],
    "net": ["cidrhost", "cidrnetmask", "cidrsubnet", "cidrsubnets"],
    "crypto": ["bcrypt", "md5", "rsadecrypt", "sha1", "sha256", "sha512", "uuidv4", "uuidv5"],
    "dates": ["formatdate", "timeadd"],
}
"""Which module defines each pure function: a module is imported only when one of its
functions is first called, so checking a job that calls `upper` never loads the YAML
emitter, the CIDR or the crypto code (a cold `hclgpu check` pays only for what it uses)."""

_HOME = {name: module for module, names in MODULES.items() for name in names}


class FunctionTable(Mapping[str, Function]):
    """The pure functions by name, loading each family's module on first use."""

    def __init__(self) -> None:
        self._loaded: dict[str, Function] = {}

    def __getitem__(self, name: str) -> Function:
        function = self._loaded.get(name)
        if function is None:
            module = _HOME[name]  # KeyError for an unknown name, as a dict would raise
            for loaded in import_module(f"hclgpu.eval.functions.{module}").TABLE:
                self._loaded[loaded.name] = loaded
            function = self._loaded[name]
        return function

    def __iter__(self) -> Iterator[str]:
        return iter(_HOME)

    def __len__(self) -> int:
        return len(_HOME)


FUNCTIONS = FunctionTable()
"""Every function that does not touch the file system, by name."""


class _WithFiles(Mapping[str, Function]):
    """The pure functions plus file functions bound to one directory."""

    def __init__(self, files: dict[str, Function]) -> None:
        self._files = files

    def __getitem__(self, name: str) -> Function:
        function = self._files.get(name)
        return function if function is not None else FUNCTIONS[name]

    def __iter__(self) -> Iterator[str]:
        yield from FUNCTIONS
        yield from self._files

    def __len__(self) -> int:
        return len(FUNCTIONS) + len(self._files)


@lru_cache(maxsize=32)
def _all_functions(base_dir: Path, allow_fs: bool, cwd: str | None) -> Mapping[str, Function]:
    """Build (once per base directory, setting and, for a relative base, working directory:
    the functions resolve the base once) the full table."""
    return _WithFiles(file_functions(base_dir, allow_fs))


def all_functions(base_dir: Path, allow_fs: bool) -> Mapping[str, Function]:
    """The pure functions plus the file functions bound to ``base_dir``.

    The result is cached per ``(base_dir, allow_fs)`` and shared: do not modify it.
    """
    base = Path(base_dir)
    return _all_functions(base, allow_fs, None if base.is_absolute() else os.getcwd())
