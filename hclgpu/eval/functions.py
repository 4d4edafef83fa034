"""The HCL function library of Nomad's jobspec2 (``jobspec2/functions.go``).

Every name Nomad registers is here except ``can``, ``try`` and ``convert``, which need
unevaluated arguments or type expressions and belong to the evaluator. The functions
come from go-cty's stdlib, hashicorp/go-cty-funcs and zclconf/go-cty-yaml; each module
below reproduces one family with the upstream semantics and error messages:

=====================  ===========================================================
module                 functions
=====================  ===========================================================
functions_text         upper lower title strlen strrev reverse substr chomp indent
                       trim* join sort split replace regex_replace format formatlist
functions_collections  length element index coalesce* compact concat contains
                       distinct chunklist flatten keys values lookup merge set*
                       slice zipmap
functions_numeric      abs ceil floor log pow signum max min parseint range
functions_encoding     base64encode base64decode urlencode jsonencode jsondecode
                       csvdecode
functions_yaml         yamlencode yamldecode
functions_net          cidrhost cidrnetmask cidrsubnet cidrsubnets
functions_crypto       md5 sha1 sha256 sha512 bcrypt rsadecrypt uuidv4 uuidv5
functions_time         formatdate timeadd
functions_fs           abspath basename dirname file filebase64 fileexists fileset
                       pathexpand (see :func:`file_functions`)
=====================  ===========================================================

Calling: ``FUNCTIONS[name].check_arity(len(args))`` first (None when fine), then
``impl(*values)``. An :class:`FunctionError` (an :class:`EvalError`) carries HCL's
diagnostic detail as ``message``, its summary as ``summary`` ("Invalid function
argument" or "Error in function call") and the argument to point at as ``arg``.

Note that Nomad's ``reverse`` reverses a *string* (both names map to cty's string
``ReverseFunc``), ``index`` looks an element up by key, ``lookup`` requires its default,
and ``replace`` never treats ``/.../`` as a regular expression.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from hclgpu.eval import (
    functions_collections,
    functions_crypto,
    functions_encoding,
    functions_net,
    functions_numeric,
    functions_text,
    functions_time,
    functions_yaml,
)
from hclgpu.eval.functions_base import Function, FunctionError, Param
from hclgpu.eval.functions_fs import file_functions

__all__ = ["FUNCTIONS", "Function", "FunctionError", "Param", "all_functions", "file_functions"]

FUNCTIONS: dict[str, Function] = {
    function.name: function
    for table in (
        functions_text.TABLE,
        functions_collections.TABLE,
        functions_numeric.TABLE,
        functions_encoding.TABLE,
        functions_yaml.TABLE,
        functions_net.TABLE,
        functions_crypto.TABLE,
        functions_time.TABLE,
    )
    for function in table
}
"""Every function that does not touch the file system, by name."""


@lru_cache(maxsize=32)
def _all_functions(base_dir: Path, allow_fs: bool) -> dict[str, Function]:
    """Build (once per base directory and setting) the full table."""
    return FUNCTIONS | file_functions(base_dir, allow_fs)


def all_functions(base_dir: Path, allow_fs: bool) -> dict[str, Function]:
    """The pure functions plus the file functions bound to ``base_dir``.

    The result is cached per ``(base_dir, allow_fs)`` and shared: do not modify it.
    """
    return _all_functions(Path(base_dir), allow_fs)
