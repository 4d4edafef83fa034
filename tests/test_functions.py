"""The HCL function library (hclgpu.eval.functions) against Nomad's jobspec2 semantics.

Expected values come from the upstream sources and documentation: go-cty's stdlib,
hashicorp/go-cty-funcs (including its published test vectors), zclconf/go-cty-yaml, the
Terraform/Nomad function documentation examples (same implementations), Go's ``fmt``,
``time`` and ``encoding/*`` rules, and the classic bcrypt test vectors.
"""

from __future__ import annotations

import contextlib
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hclgpu.eval.functions import FUNCTIONS, FunctionError, all_functions, crypto, file_functions
from hclgpu.eval.values import EvalError

WHOLE = "value must be a whole number, between -9223372036854775808 and 9223372036854775807"


def call(name: str, *args: Any) -> Any:
    """Call a pure function by name."""
    return FUNCTIONS[name].impl(*args)


def fails(name: str, *args: Any) -> FunctionError:
    """Call a function that must fail, returning its error."""
    with pytest.raises(FunctionError) as info:
        call(name, *args)
    return info.value


def call_error(name: str, detail: str) -> str:
    """HCL's detail text for a failed call."""
    return f'Call to function "{name}" failed: {detail}.'


def arg_error(param: str, detail: str) -> str:
    """HCL's detail text for an invalid argument."""
    return f'Invalid value for "{param}" parameter: {detail}.'


# --- the table --------------------------------------------------------------------------

NOMAD_PURE = {
    "abs",
    "base64decode",
    "base64encode",
    "bcrypt",
    "ceil",
    "chomp",
    "chunklist",
    "cidrhost",
    "cidrnetmask",
    "cidrsubnet",
    "cidrsubnets",
    "coalesce",
    "coalescelist",
    "compact",
    "concat",
    "contains",
    "csvdecode",
    "distinct",
    "element",
    "flatten",
    "floor",
    "format",
    "formatdate",
    "formatlist",
    "indent",
    "index",
    "join",
    "jsondecode",
    "jsonencode",
    "keys",
    "length",
    "log",
    "lookup",
    "lower",
    "max",
    "md5",
    "merge",
    "min",
    "parseint",
    "pow",
    "range",
    "reverse",
    "replace",
    "regex_replace",
    "rsadecrypt",
    "setintersection",
    "setproduct",
    "setunion",
    "sha1",
    "sha256",
    "sha512",
    "signum",
    "slice",
    "sort",
    "split",
    "strlen",
    "strrev",
    "substr",
    "timeadd",
    "title",
    "trim",
    "trimprefix",
    "trimspace",
    "trimsuffix",
    "upper",
    "urlencode",
    "uuidv4",
    "uuidv5",
    "values",
    "yamldecode",
    "yamlencode",
    "zipmap",
}
NOMAD_FILES = {"abspath", "basename", "dirname", "file", "filebase64", "fileexists", "fileset", "pathexpand"}


def test_table_has_every_function_nomad_registers() -> None:
    assert set(FUNCTIONS) == NOMAD_PURE
    assert set(all_functions(Path("."), False)) == NOMAD_PURE | NOMAD_FILES
    assert not {"can", "try", "convert"} & set(all_functions(Path("."), True))


def test_all_functions_is_cached_per_directory_and_setting(tmp_path: Path) -> None:
    assert all_functions(tmp_path, False) is all_functions(tmp_path, False)
    assert all_functions(tmp_path, False) is not all_functions(tmp_path, True)


def test_module_import_is_light() -> None:
    code = (
        "import sys; import hclgpu.eval.functions; "
        "print(sorted(m for m in ('yaml', 'decimal', 'hashlib', 'json', 'csv', 'ctypes', 'uuid') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- arity and parameter conversion -------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "count", "message"),
    [
        (
            "upper",
            0,
            'Not enough function arguments: Function "upper" expects 1 argument(s). Missing value for "str".',
        ),
        ("upper", 2, 'Too many function arguments: Function "upper" expects only 1 argument(s).'),
        (
            "join",
            0,
            'Not enough function arguments: Function "join" expects at least 1 argument(s). '
            'Missing value for "separator".',
        ),
        (
            "lookup",
            2,
            'Not enough function arguments: Function "lookup" expects 3 argument(s). '
            'Missing value for "default".',
        ),
        ("uuidv4", 1, 'Too many function arguments: Function "uuidv4" expects only 0 argument(s).'),
        ("join", 5, None),
        ("coalesce", 0, None),
    ],
)
def test_check_arity(name: str, count: int, message: str | None) -> None:
    assert FUNCTIONS[name].check_arity(count) == message


def test_impl_enforces_arity_too() -> None:
    error = fails("upper")
    assert error.summary == "Not enough function arguments"
    assert error.arg is None


@pytest.mark.parametrize(
    ("name", "args", "expected"),
    [
        ("upper", [1.5], "1.5"),
        ("upper", [True], "TRUE"),
        ("abs", ["-3"], 3),
        ("abs", ["2.5e1"], 25),
        ("join", ["-", [1, True, "x"]], "1-true-x"),
        ("upper", ["e\u0301"], "\u00c9"),
    ],
)
def test_parameters_convert_like_cty(name: str, args: list[Any], expected: Any) -> None:
    assert call(name, *args) == expected


@pytest.mark.parametrize(
    ("name", "args", "index", "message"),
    [
        ("upper", [None], 0, arg_error("str", "argument must not be null")),
        ("upper", [[1]], 0, arg_error("str", "string required")),
        ("abs", ["x"], 0, arg_error("num", "a number is required")),
        ("abs", [True], 0, arg_error("num", "number required")),
        ("join", [",", "a"], 1, arg_error("lists", "list of string required")),
        ("join", [",", [[1]]], 1, arg_error("lists", "element 0: string required")),
        ("distinct", ["a"], 0, arg_error("list", "list of any single type required")),
        ("distinct", [[1, [2]]], 0, arg_error("list", "all list elements must have the same type")),
        ("setunion", [[1, True]], 0, arg_error("first_set", "all set elements must have the same type")),
    ],
)
def test_parameter_errors(name: str, args: list[Any], index: int, message: str) -> None:
    error = fails(name, *args)
    assert (error.arg, error.message, error.summary) == (index, message, "Invalid function argument")


def test_function_error_is_an_eval_error() -> None:
    assert isinstance(fails("abs", "x"), EvalError)


# --- strings ----------------------------------------------------------------------------

STRING_CASES = [
    ("upper", ["hello"], "HELLO"),
    ("upper", ["straße"], "STRAßE"),
    ("lower", ["HELLO İ"], "hello i"),
    ("title", ["hello world"], "Hello World"),
    ("title", ["o'neil is_here-now"], "O'Neil Is_here-Now"),
    ("strlen", ["hello"], 5),
    ("strlen", ["e\u0301a"], 2),
    ("strlen", ["🙂👍🏽"], 2),
    ("strlen", ["🇫🇷"], 1),
    ("strlen", [""], 0),
    ("strrev", ["hello"], "olleh"),
    ("strrev", ["cafe\u0301!"], "!\u00e9fac"),
    ("reverse", ["abc"], "cba"),
    ("substr", ["hello world", 1, 4], "ello"),
    ("substr", ["🤔🤷", 0, 1], "🤔"),
    ("substr", ["hello world", -5, -1], "world"),
    ("substr", ["hello world", 100, -1], ""),
    ("substr", ["hello", 2, 0], ""),
    ("substr", ["abc", -1, 0], "c"),
    ("chomp", ["hello\n"], "hello"),
    ("chomp", ["hello\r\n"], "hello"),
    ("chomp", ["hello\n\n\r"], "hello"),
    ("chomp", ["a\nb"], "a\nb"),
    ("indent", [2, "[\n  foo,\n  bar,\n]\n"], "[\n    foo,\n    bar,\n  ]\n  "),
    ("trim", ["?!hello?!", "!?"], "hello"),
    ("trim", ["abc", ""], "abc"),
    ("trimprefix", ["helloworld", "hello"], "world"),
    ("trimprefix", ["helloworld", "world"], "helloworld"),
    ("trimsuffix", ["helloworld", "world"], "hello"),
    ("trimspace", ["  hello\n\n"], "hello"),
    ("trimspace", ["\u3000x\u00a0"], "x"),
    ("trimspace", ["\x1chello"], "\x1chello"),
    ("join", ["-", ["foo", "bar", "baz"]], "foo-bar-baz"),
    ("join", [", ", ["foo"], ["bar", "baz"]], "foo, bar, baz"),
    ("join", [",", []], ""),
    ("split", [",", "foo,bar,baz"], ["foo", "bar", "baz"]),
    ("split", [",", ""], [""]),
    ("split", ["", "abc"], ["a", "b", "c"]),
    ("sort", [["e", "d", "a", "x"]], ["a", "d", "e", "x"]),
    ("sort", [[10, 9, 1]], ["1", "10", "9"]),
    ("replace", ["1 + 2 + 3", "+", "-"], "1 - 2 - 3"),
    ("replace", ["hello world", "/w.*d/", "everybody"], "hello world"),
    ("replace", ["a/b/c", "/b/", "x"], "axc"),
    ("replace", ["abc", "", "-"], "-a-b-c-"),
    ("regex_replace", ["-ab-axxb-", "a(x*)b", "T"], "-T-T-"),
    ("regex_replace", ["-ab-axxb-", "a(x*)b", "${1}W"], "-W-xxW-"),
    ("regex_replace", ["-ab-axxb-", "a(x*)b", "$1W"], "---"),
    ("regex_replace", ["2024-01-02", r"(?P<y>\d+)-(?P<m>\d+)", "$m/$y"], "01/2024-02"),
    ("regex_replace", ["2024-01", r"(?<y>\d+)-(\d+)", "${2}.${y}"], "01.2024"),
    ("regex_replace", ["cost: $5", r"\$(\d)", "$$$1"], "cost: $5"),
    ("regex_replace", ["abxd", "x*", "-"], "-a-b-d-"),
    ("regex_replace", ["a\n", "a$", "b"], "a\n"),
    ("regex_replace", ["a\nb", "(?m)a$", "c"], "c\nb"),
    ("regex_replace", ["\u0663" + "3", r"\d", "x"], "\u0663x"),
    ("regex_replace", ["a1b", "[[:digit:]]", "_"], "a_b"),
    ("regex_replace", ["a.b", r"\Q.\E", "!"], "a!b"),
    ("regex_replace", ["abc", r"b\z", "x"], "abc"),
]


@pytest.mark.parametrize(("name", "args", "expected"), STRING_CASES)
def test_string_functions(name: str, args: list[Any], expected: Any) -> None:
    assert call(name, *args) == expected


@pytest.mark.parametrize(
    ("name", "args", "index", "message"),
    [
        ("join", [","], None, call_error("join", "at least one list is required")),
        (
            "join",
            [",", ["a", None]],
            1,
            arg_error("lists", "element 1 is null; cannot concatenate null values"),
        ),
        (
            "join",
            [",", ["a"], [None]],
            2,
            arg_error("lists", "element 0 of list 2 is null; cannot concatenate null values"),
        ),
        (
            "sort",
            [["a", None]],
            None,
            call_error("sort", "given list element 1 is null; a null string cannot be sorted"),
        ),
        ("substr", ["abc", 0.5, 1], None, call_error("substr", WHOLE)),
        (
            "indent",
            [-1, "a"],
            None,
            call_error("indent", "panic in function implementation: strings: negative Repeat count"),
        ),
        ("regex_replace", ["a", "(?=a)", "b"], 1, None),
        ("regex_replace", ["a", "(", "b"], 1, None),
        ("regex_replace", ["a", r"(a)\1", "b"], 1, None),
    ],
)
def test_string_errors(name: str, args: list[Any], index: int | None, message: str | None) -> None:
    error = fails(name, *args)
    assert error.arg == index
    if message is None:
        assert error.message.startswith(f'Call to function "{name}" failed: error parsing regexp:')
    else:
        assert error.message == message


# --- format -------------------------------------------------------------------------------

FORMAT_CASES = [
    (["Hello, %s!", "Ander"], "Hello, Ander!"),
    (["There are %d lights", 4], "There are 4 lights"),
    (["%5.2f|%10.3f|", 3.14159, 3.14159], " 3.14|     3.142|"),
    (["%-5d|%05d|%+d|% d", 42, -42, 5, 5], "42   |-0042|+5| 5"),
    (["%x %X %#x %o %b", 255, 255, 255, 8, 5], "ff FF 0xff 10 101"),
    (["%.3d|%8.3d|", 7, 7], "007|     007|"),
    (["%e|%E|%.3e", 1234.5678, 1234.5678, 0], "1.234568e+03|1.234568E+03|0.000e+00"),
    (["%g %g %g %g", 1234567, 123456, 0.0001, 0.00001], "1.234567e+06 123456 0.0001 1e-05"),
    (["%.2g %G", 1234, 0.00001234], "1.2e+03 1.234E-05"),
    (["%.1f %.0f %.0f", 0.25, 2.5, 3.5], "0.2 2 4"),
    (["%08.3f|%-8.2f|%+.1f", -3.14159, 2.5, 2], "-003.142|2.50    |+2.0"),
    (["%v %v %v %v", "s", 1.5, 100000, 1000000], "s 1.5 100000 1e+06"),
    (["%v %v %v", True, None, [1, "a"]], 'true null [1,"a"]'),
    (["%#v %#v", "s", {"b": 1, "a": "x"}], '"s" {"a":"x","b":1}'),
    (["%s %s %s", 12, True, 1.5], "12 true 1.5"),
    (["%d %f", "12", "2.5"], "12 2.500000"),
    (["%t %t %t", True, "false", "1"], "true false true"),
    (["%5s|%-5s|%05s", "ab", "ab", "ab"], "   ab|ab   |000ab"),
    (["%.2s|%.0s|%3.1s", "héllo", "abc", "xyz"], "hé|abc|  x"),
    (["%q", 'a"<b>\n'], '"a\\"\\u003cb\\u003e\\n"'),
    (["%6q|", "x"], '   "x"|'),
    (["%[2]d %[1]d %d", 1, 2], "2 1 2"),
    (["100%%"], "100%"),
    (["%3v|%-4v|", "é", 7], "  é|7   |"),
]


@pytest.mark.parametrize(("args", "expected"), FORMAT_CASES)
def test_format(args: list[Any], expected: str) -> None:
    assert call("format", *args) == expected


@pytest.mark.parametrize(
    ("args", "detail"),
    [
        (["%d", 3.5], 'unsupported value for "%d" at 0: an integer is required'),
        (["%d", "abc"], 'unsupported value for "%d" at 0: a number is required'),
        (["é%d", "x"], 'unsupported value for "%d" at 2: a number is required'),
        (["%s", [1]], 'unsupported value for "%s" at 0: string required'),
        (["%s", None], 'unsupported value for "%s" at 0: null value cannot be formatted'),
        (["%t", "yes"], 'unsupported value for "%t" at 0: a bool is required'),
        (
            ["%t", "True"],
            'unsupported value for "%t" at 0: a bool is required; '
            'to convert from string, use lowercase "true"',
        ),
        (["%t", 1], 'unsupported value for "%t" at 0: bool required'),
        (["%s"], 'not enough arguments for "%s" at 0: need index 1 but have 0 total'),
        (["%[2]d", 1], 'not enough arguments for "%[2]d" at 0: need index 2 but have 1 total'),
        (["%y", 1], "unsupported format verb 'y' in \"%y\" at offset 0"),
        (["abc%"], "invalid format string starting at offset 4"),
        (["%5"], "invalid format string starting at offset 2"),
        (["%!"], "unrecognized format character '!' at offset 1"),
        (["%[0]d", 1], "unrecognized format character '0' at offset 2"),
        (["%*d", 5, 3], "unrecognized format character '*' at offset 1"),
    ],
)
def test_format_errors(args: list[Any], detail: str) -> None:
    error = fails("format", *args)
    assert error.message == call_error("format", detail)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["Hello, %s!", ["Valentina", "Ander", "Olivia", "Sam"]],
            ["Hello, Valentina!", "Hello, Ander!", "Hello, Olivia!", "Hello, Sam!"],
        ),
        (
            ["%s, %s!", "Salutations", ["Valentina", "Ander"]],
            ["Salutations, Valentina!", "Salutations, Ander!"],
        ),
        (["%s=%d", ["a", "b"], [1, 2]], ["a=1", "b=2"]),
        (["%s", []], []),
        (["x"], ["x"]),
        (["%v", "single"], ["single"]),
    ],
)
def test_formatlist(args: list[Any], expected: list[str]) -> None:
    assert call("formatlist", *args) == expected


def test_formatlist_errors() -> None:
    error = fails("formatlist", "%s %s", ["a", "b"], ["c"])
    assert error.arg == 2
    assert error.message == arg_error(
        "args", "argument 2 has length 1, which is inconsistent with argument 1 of length 2"
    )
    error = fails("formatlist", "%d", ["1", "a"])
    assert error.message == call_error(
        "formatlist", 'error on format iteration 1: unsupported value for "%d" at 0: a number is required'
    )
    error = fails("formatlist", "%d")
    assert error.message == call_error(
        "formatlist", 'not enough arguments for "%d" at 0: need index 1 but have 0 total'
    )


# --- collections --------------------------------------------------------------------------

COLLECTION_CASES = [
    ("length", [[1, 2, 3]], 3),
    ("length", [{"a": 1}], 1),
    ("length", [[]], 0),
    ("element", [["a", "b", "c"], 1], "b"),
    ("element", [["a", "b", "c"], 3], "a"),
    ("element", [["a", "b", "c"], -1], "c"),
    ("element", [["a", "b", "c"], "4"], "b"),
    ("index", [["a", "b"], 1], "b"),
    ("index", [{"k": "v"}, "k"], "v"),
    ("coalesce", ["a", "b"], "a"),
    ("coalesce", ["", "b"], ""),
    ("coalesce", [None, 2], 2),
    ("coalesce", [1, "2"], "1"),
    ("coalesce", [None, [], ["a"]], []),
    ("coalescelist", [["a", "b"], ["c"]], ["a", "b"]),
    ("coalescelist", [[], ["c"]], ["c"]),
    ("coalescelist", [None, [1]], [1]),
    ("compact", [["a", "", "b", None, "c"]], ["a", "b", "c"]),
    ("concat", [["a"], ["b", "c"]], ["a", "b", "c"]),
    ("concat", [[1], ["a", [2]]], [1, "a", [2]]),
    ("contains", [["a", "b"], "a"], True),
    ("contains", [[1, 2], "1"], False),
    ("contains", [[[1], {"a": 1}], {"a": 1}], True),
    ("distinct", [["a", "b", "a", "c", "d", "b"]], ["a", "b", "c", "d"]),
    ("distinct", [[1, "1", 2]], ["1", "2"]),
    ("chunklist", [["a", "b", "c", "d", "e"], 2], [["a", "b"], ["c", "d"], ["e"]]),
    ("chunklist", [["a", "b"], 0], [["a", "b"]]),
    ("chunklist", [[], 3], []),
    ("flatten", [[["a", "b"], [], ["c"]]], ["a", "b", "c"]),
    ("flatten", [[[["a", "b"], []], ["c"], {"m": [1]}]], ["a", "b", "c", {"m": [1]}]),
    ("keys", [{"a": 1, "c": 2, "d": 3}], ["a", "c", "d"]),
    ("keys", [{}], []),
    ("values", [{"a": 3, "c": 2, "d": 1}], [3, 2, 1]),
    ("lookup", [{"a": "ay", "b": "bee"}, "a", "what?"], "ay"),
    ("lookup", [{"a": "ay", "b": "bee"}, "c", "what?"], "what?"),
    ("lookup", [{"1": "one"}, 1, "none"], "one"),
    ("merge", [{"a": "b", "c": "d"}, {"e": "f", "c": "z"}], {"a": "b", "c": "z", "e": "f"}),
    ("merge", [{"a": 1}, None], {"a": 1}),
    ("merge", [], {}),
    ("setintersection", [["a", "b"], ["b", "c"], ["b", "d"]], ["b"]),
    ("setintersection", [["a"], []], []),
    ("setunion", [["a", "b"], ["b", "c"], ["d"]], ["a", "b", "c", "d"]),
    ("setunion", [[3, 1, 3], [2]], [1, 2, 3]),
    ("setunion", [[True, False, True]], [False, True]),
    ("setunion", [["b"], [1, "a"]], ["1", "a", "b"]),
    ("setunion", [["b", None], ["a"]], ["a", "b", None]),
    (
        "setproduct",
        [["development", "staging"], ["app1", "app2"]],
        [["development", "app1"], ["development", "app2"], ["staging", "app1"], ["staging", "app2"]],
    ),
    ("setproduct", [["a"], []], []),
    ("setproduct", [["a"], [1, "b"]], [["a", "1"], ["a", "b"]]),
    ("slice", [["a", "b", "c", "d"], 1, 3], ["b", "c"]),
    ("slice", [["a"], 1, 1], []),
    ("zipmap", [["a", "b"], [1, 2]], {"a": 1, "b": 2}),
    ("zipmap", [["a", "a"], [1, 2]], {"a": 2}),
    ("zipmap", [[], []], {}),
]


@pytest.mark.parametrize(("name", "args", "expected"), COLLECTION_CASES)
def test_collection_functions(name: str, args: list[Any], expected: Any) -> None:
    assert call(name, *args) == expected


@pytest.mark.parametrize(
    ("name", "args", "index", "message"),
    [
        ("length", ["abc"], 0, call_error("length", "collection must be a list, a map or a tuple")),
        ("element", [[], 0], 0, call_error("element", "cannot use element function with an empty list")),
        ("element", ["x", 0], 0, call_error("element", "cannot read elements from string")),
        ("element", [["a"], 1.5], None, call_error("element", f"invalid index: {WHOLE}")),
        ("index", [["a"], 1], 1, call_error("index", "key must be between 0 and 1 inclusive")),
        ("index", [["a"], "0"], 1, call_error("index", "key for tuple must be number")),
        ("index", [{"a": 1}, 1], 1, call_error("index", "key for map must be string")),
        ("index", [{"a": 1}, "b"], 1, call_error("index", "invalid index")),
        ("index", ["s", 0], 0, call_error("index", "collection must be a list, a map or a tuple")),
        ("coalesce", [None, None], None, call_error("coalesce", "no non-null arguments")),
        ("coalesce", [1, True], None, call_error("coalesce", "all arguments must have the same type")),
        ("coalesce", ["a", ["b"]], None, call_error("coalesce", "all arguments must have the same type")),
        ("coalesce", [], None, call_error("coalesce", "all arguments must have the same type")),
        ("coalescelist", [[], []], None, call_error("coalescelist", "no non-null arguments")),
        (
            "coalescelist",
            ["a"],
            None,
            call_error("coalescelist", "coalescelist arguments must be lists or tuples"),
        ),
        ("coalescelist", [], None, call_error("coalescelist", "at least one argument is required")),
        ("concat", [], None, call_error("concat", "at least one argument is required")),
        ("concat", [["a"], "b"], 1, arg_error("seqs", "all arguments must be lists or tuples; got string")),
        ("concat", [["a"], None], 1, arg_error("seqs", "argument must not be null")),
        ("contains", ["ab", "a"], 0, call_error("contains", "argument must be list, tuple, or set")),
        ("chunklist", [["a"], -1], 1, call_error("chunklist", "the size argument must be positive")),
        ("chunklist", [["a"], 0.5], None, call_error("chunklist", f"invalid size: {WHOLE}")),
        ("flatten", ["a"], 0, call_error("flatten", "can only flatten lists, sets and tuples")),
        ("keys", [[1]], 0, arg_error("inputMap", "must have map or object type")),
        ("values", ["a"], 0, call_error("values", "values() requires a map as the first argument")),
        (
            "lookup",
            ["x", "a", "d"],
            0,
            arg_error("inputMap", "lookup() requires a map as the first argument"),
        ),
        ("lookup", [{}, "a", None], 2, arg_error("default", "argument must not be null")),
        (
            "merge",
            [{"a": 1}, "x"],
            None,
            call_error("merge", 'arguments must be maps or objects, got "string"'),
        ),
        (
            "setunion",
            [["a"], [[1]]],
            None,
            call_error("setunion", "given sets must all have compatible element types"),
        ),
        ("setproduct", [["a"]], None, call_error("setproduct", "at least two arguments are required")),
        ("setproduct", ["a", ["b"]], 0, arg_error("sets", "a set or a list is required")),
        ("setproduct", [["a"], [1, True]], 1, arg_error("sets", "all elements must be of the same type")),
        (
            "slice",
            [["a"], 2, 2],
            1,
            arg_error("start_index", "start index must not be greater than the length of the list"),
        ),
        (
            "slice",
            [["a", "b"], 2, 1],
            1,
            arg_error("start_index", "start index must not be greater than end index"),
        ),
        ("slice", [["a"], -1, 1], 1, arg_error("start_index", "start index must not be less than zero")),
        (
            "slice",
            [["a"], 0, 3],
            2,
            arg_error("end_index", "end index must not be greater than the length of the list"),
        ),
        ("slice", [["a"], 0.5, 1], 1, arg_error("start_index", f"invalid start index: {WHOLE}")),
        ("slice", ["a", 0, 1], 0, arg_error("list", "must be a list or tuple value")),
        (
            "zipmap",
            [["a"], [1, 2]],
            None,
            call_error("zipmap", "number of keys (1) does not match number of values (2)"),
        ),
        ("zipmap", [["a"], "b"], 1, call_error("zipmap", "values argument must be a list or tuple value")),
        ("zipmap", [[None], [1]], 0, call_error("zipmap", "keys list has null value at index 0")),
    ],
)
def test_collection_errors(name: str, args: list[Any], index: int | None, message: str) -> None:
    error = fails(name, *args)
    assert (error.arg, error.message) == (index, message)


# --- numbers ------------------------------------------------------------------------------

NUMBER_CASES = [
    ("abs", [23], 23),
    ("abs", [-12.4], 12.4),
    ("abs", [0], 0),
    ("ceil", [5.1], 6),
    ("ceil", [5], 5),
    ("ceil", [-5.1], -5),
    ("floor", [4.9], 4),
    ("floor", [-4.1], -5),
    ("floor", [math.inf], math.inf),
    ("log", [50, 10], math.log(50) / math.log(10)),
    ("log", [16, 2], 4),
    ("log", [0, 10], -math.inf),
    ("pow", [3, 2], 9),
    ("pow", [4, 0], 1),
    ("pow", [2, -1], 0.5),
    ("pow", [2, 0.5], math.sqrt(2)),
    ("pow", [0, -1], math.inf),
    ("signum", [-13], -1),
    ("signum", [0], 0),
    ("signum", [344], 1),
    ("max", [12, 54, 3], 54),
    ("max", [5, "7.5"], 7.5),
    ("min", [12, 54, 3], 3),
    ("min", [-1.5], -1.5),
    ("parseint", ["100", 10], 100),
    ("parseint", ["FF", 16], 255),
    ("parseint", ["ff", 16], 255),
    ("parseint", ["-10", 16], -16),
    ("parseint", ["+7", 8], 7),
    ("parseint", ["1011111011101111", 2], 48879),
    ("parseint", ["aA", 62], 10 * 62 + 36),
    ("parseint", ["zZ", 36], 35 * 36 + 35),
    ("parseint", ["123456789012345678901234567890", 10], 123456789012345678901234567890),
    ("range", [3], [0, 1, 2]),
    ("range", [1, 4], [1, 2, 3]),
    ("range", [1, 8, 2], [1, 3, 5, 7]),
    ("range", [1, 4, 0.5], [1, 1.5, 2, 2.5, 3, 3.5]),
    ("range", [4, 1], [4, 3, 2]),
    ("range", [10, 5, -2], [10, 8, 6]),
    ("range", [0], []),
    ("range", [-3], [0, -1, -2]),
    ("range", [0, 1, 0.1], [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]),
]


@pytest.mark.parametrize(("name", "args", "expected"), NUMBER_CASES)
def test_number_functions(name: str, args: list[Any], expected: Any) -> None:
    result = call(name, *args)
    assert result == expected
    assert isinstance(result, type(expected)) or isinstance(expected, list)  # a fraction may be a BigFloat


@pytest.mark.parametrize(
    ("name", "args", "index", "message"),
    [
        ("signum", [1.5], None, call_error("signum", WHOLE)),
        ("log", [-1, 2], None, call_error("log", "panic in function implementation: NewFloat(NaN)")),
        ("pow", [-8, 1 / 3], None, call_error("pow", "panic in function implementation: NewFloat(NaN)")),
        ("max", [], None, call_error("max", "must pass at least one number")),
        ("min", [], None, call_error("min", "must pass at least one number")),
        ("parseint", ["12", 2], 0, arg_error("number", 'cannot parse "12" as a base 2 integer')),
        ("parseint", ["", 10], 0, arg_error("number", 'cannot parse "" as a base 10 integer')),
        ("parseint", ["1_000", 10], 0, arg_error("number", 'cannot parse "1_000" as a base 10 integer')),
        (
            "parseint",
            ["FF", 1],
            1,
            arg_error("base", "base must be a whole number between 2 and 62 inclusive"),
        ),
        (
            "parseint",
            ["FF", 63],
            1,
            arg_error("base", "base must be a whole number between 2 and 62 inclusive"),
        ),
        ("parseint", [12, 10], 0, arg_error("number", "first argument must be a string, not number")),
        ("parseint", ["1", 2.5], 1, arg_error("base", WHOLE)),
        ("range", [], None, call_error("range", "must have one, two, or three arguments")),
        ("range", [1, 2, 0], 2, arg_error("params", "step must not be zero")),
        ("range", [5, 1, 1], 1, arg_error("params", "end must be greater than start when step is positive")),
        ("range", [1, 5, -1], 1, arg_error("params", "end must be less than start when step is negative")),
        (
            "range",
            [0, 2000],
            None,
            call_error(
                "range",
                "more than 1024 values were generated; either decrease the difference between start and end "
                "or use a smaller step",
            ),
        ),
    ],
)
def test_number_errors(name: str, args: list[Any], index: int | None, message: str) -> None:
    error = fails(name, *args)
    assert (error.arg, error.message) == (index, message)


# --- encodings ---------------------------------------------------------------------------

ENCODING_CASES = [
    ("base64encode", ["Hello World"], "SGVsbG8gV29ybGQ="),
    ("base64encode", ["héllo"], "aMOpbGxv"),
    ("base64decode", ["SGVsbG8gV29ybGQ="], "Hello World"),
    ("base64decode", ["SGVs\r\nbG8="], "Hello"),
    ("urlencode", ["Hello World!"], "Hello+World%21"),
    ("urlencode", ["☃"], "%E2%98%83"),
    ("urlencode", ["foo:bar@localhost?foo=bar&bar=baz"], "foo%3Abar%40localhost%3Ffoo%3Dbar%26bar%3Dbaz"),
    ("urlencode", ["a-b_c.d~e/f"], "a-b_c.d~e%2Ff"),
    ("jsonencode", [{"hello": "world"}], '{"hello":"world"}'),
    ("jsonencode", [{"b": [1, 2.5, True, None], "a": "x"}], '{"a":"x","b":[1,2.5,true,null]}'),
    ("jsonencode", ["<a&b>"], '"\\u003ca\\u0026b\\u003e"'),
    ("jsonencode", ['é"\\\n\t\x01\x7f\u2028'], '"é\\"\\\\\\n\\t\\u0001\x7f\\u2028"'),
    ("jsonencode", [None], "null"),
    ("jsonencode", [1e21], "1000000000000000000000"),
    ("jsonencode", [1e-7], "0.0000001"),
    ("jsonencode", [0.1], "0.1"),
    ("jsonencode", [-2], "-2"),
    ("jsondecode", ['{"hello": "world"}'], {"hello": "world"}),
    ("jsondecode", ['[1, 2.5, true, null, "x", {}]'], [1, 2.5, True, None, "x", {}]),
    ("jsondecode", ["1e2"], 100),
    ("jsondecode", ["12345678901234567890"], 12345678901234567890),
    ("jsondecode", ['"\\u00e9"'], "é"),
    ("csvdecode", ["a,b,c\n1,2,3\n4,5,6"], [{"a": "1", "b": "2", "c": "3"}, {"a": "4", "b": "5", "c": "6"}]),
    ("csvdecode", ['a,b\n"1,2","x\ny"\n'], [{"a": "1,2", "b": "x\ny"}]),
    ("csvdecode", ['a\n""""\n'], [{"a": '"'}]),
    ("csvdecode", ["a,b\r\n1,2\r\n\r\n3,4"], [{"a": "1", "b": "2"}, {"a": "3", "b": "4"}]),
    ("csvdecode", ["a,b\n"], []),
    ("csvdecode", [" a , b \n 1 , 2 "], [{" a ": " 1 ", " b ": " 2 "}]),
]


@pytest.mark.parametrize(("name", "args", "expected"), ENCODING_CASES)
def test_encoding_functions(name: str, args: list[Any], expected: Any) -> None:
    assert call(name, *args) == expected


@pytest.mark.parametrize(
    ("name", "args", "detail"),
    [
        ("base64decode", ["SGVsbG8gV29ybGQ"], "failed to decode base64 data 'SGVsbG8gV29ybGQ'"),
        ("base64decode", ["/w=="], "the result of decoding the the provided string is not valid UTF-8"),
        ("jsondecode", [""], "EOF"),
        ("jsondecode", ["{"], "unexpected EOF"),
        ("jsondecode", ['{"a": "x'], "unexpected EOF"),
        ("jsondecode", ["nope"], "invalid character 'o' in literal null (expecting 'u')"),
        ("jsondecode", ["[1 2]"], "invalid character '2' after array element"),
        ("jsondecode", ['{"a":1 "b":2}'], "invalid character '\"' after object key:value pair"),
        ("jsondecode", ['{"a" 1}'], "invalid character '1' after object key"),
        ("jsondecode", ["{1:2}"], "invalid character '1' looking for beginning of object key string"),
        ("jsondecode", ["[1,]"], "invalid character ']' looking for beginning of value"),
        ("jsondecode", ["NaN"], "invalid character 'N' looking for beginning of value"),
        ("jsondecode", ["1 2"], "extraneous data after JSON object"),
        ("jsondecode", ['{"a":1,"a":2}'], 'duplicate "a" property in JSON object'),
        ("csvdecode", [""], "missing header line"),
        ("csvdecode", ["a,a\n1,2"], 'duplicate column name "a"'),
        ("csvdecode", ["a,b\n1,2,3"], "CSV parse error on line 2: wrong number of fields"),
        ("csvdecode", ['a\n"x"y\n'], 'CSV parse error on line 2: extraneous or missing " in quoted-field'),
        ("csvdecode", ['a\nx"y\n'], 'CSV parse error on line 2: bare " in non-quoted-field'),
        ("csvdecode", ['a\n"x\n'], 'CSV parse error on line 2: extraneous or missing " in quoted-field'),
    ],
)
def test_encoding_errors(name: str, args: list[Any], detail: str) -> None:
    error = fails(name, *args)
    assert (error.arg, error.message) == (0, call_error(name, detail))


# --- YAML ---------------------------------------------------------------------------------

YAML_ENCODE_CASES = [
    ({"a": "b", "c": "d"}, '"a": "b"\n"c": "d"\n'),
    ({"foo": [1, 2, 3], "bar": "baz"}, '"bar": "baz"\n"foo":\n- 1\n- 2\n- 3\n'),
    (
        {"foo": [1, {"a": "b", "c": "d"}, 3], "bar": "baz"},
        '"bar": "baz"\n"foo":\n- 1\n- "a": "b"\n  "c": "d"\n- 3\n',
    ),
    (True, "true\n...\n"),
    (None, "null\n...\n"),
    (0, "0\n...\n"),
    ("", '""\n'),
    ("hello", '"hello"\n'),
    ("true", '"true"\n'),
    ({}, "{}\n"),
    ([], "[]\n"),
    (["b"], '- "b"\n'),
    ({"a": {"b": 1.5, "c": False}}, '"a":\n  "b": 1.5\n  "c": false\n'),
    ([[1, 2], [3]], "- - 1\n  - 2\n- - 3\n"),
    ({"e": {}, "l": [], "n": None}, '"e": {}\n"l": []\n"n": null\n'),
    ({"a": "x\ny"}, '"a": |-\n  x\n  y\n'),
    ({"a": "x\n"}, '"a": |\n  x\n'),
    ({"a": "x\n\n"}, '"a": |+\n  x\n\n'),
    ({"a": "  x\ny"}, '"a": |2-\n    x\n  y\n'),
    ("a\nb", "|-\n  a\n  b\n"),
    ({"a": "x \ny"}, '"a": "x \\ny"\n'),
    ({"a": "tab\there"}, '"a": "tab\\there"\n'),
    ({"a\nb": 1}, "? |-\n  a\n  b\n: 1\n"),
    ({"k": "é 🙂 \x07\x85"}, '"k": "é \\U0001F642 \\a\\N"\n'),
    (
        {"k": " ".join(["word"] * 20)},
        '"k": "' + " ".join(["word"] * 16) + "\n  " + " ".join(["word"] * 4) + '"\n',
    ),
    ({"x" * 129: 1}, '? "' + "x" * 129 + '"\n: 1\n'),
    (1e21, "1000000000000000000000\n...\n"),
]


@pytest.mark.parametrize(("value", "expected"), YAML_ENCODE_CASES)
def test_yamlencode(value: Any, expected: str) -> None:
    assert call("yamlencode", value) == expected


def test_yamlencode_round_trips_through_a_yaml_parser() -> None:
    import yaml

    value = {"a": "x\ny\n", "b": [1, "two", {"c": None}], "d": " ".join(["long"] * 40), "e": "é\t"}
    assert yaml.safe_load(call("yamlencode", value)) == value


YAML_DECODE_CASES = [
    ("a: b\nc: [1, 2.5]\n", {"a": "b", "c": [1, 2.5]}),
    ("", None),
    ("---", None),
    ("~", None),
    ("true", True),
    ("a: yes\nb: off\nc: Y\nd: 'yes'\ne: \"1\"\n", {"a": True, "b": False, "c": True, "d": "yes", "e": "1"}),
    (
        "a: 0x1F\nb: 0o17\nc: 017\nd: 1_000\ne: -0x10\nf: +12\ng: .5\nh: 1e3\n",
        {"a": 31, "b": 15, "c": 17, "d": 1000, "e": -16, "f": 12, "g": 0.5, "h": 1000},
    ),
    ("a: 0b101\nb: 1.2.3\nc: 12abc\n", {"a": "0b101", "b": "1.2.3", "c": "12abc"}),
    ("a: .inf\nb: -.Inf\n", {"a": math.inf, "b": -math.inf}),
    (
        "a: 2001-12-14\nb: 2001-12-14t21:59:43.10-05:00\nc: 2001-12-14 21:59:43.10\n",
        {"a": "2001-12-14T00:00:00Z", "b": "2001-12-14T21:59:43-05:00", "c": "2001-12-14T21:59:43Z"},
    ),
    ("a: !!str 12\nb: !!int '7'\nc: !!float 1\nd: !!null x\n", {"a": "12", "b": "7", "c": 1, "d": None}),
    ("1: a\nyes: b\n", {"1": "a", "true": "b"}),
    ("a: |\n  x\n  y\n", {"a": "x\ny\n"}),
    ("a: aa\n<<:\n  b: bb\n  c: cc\nd: dd\n", {"a": "aa", "b": "bb", "c": "cc", "d": "dd"}),
    ("a: aa\n<<:\n  a: aaa\n<<:\n  b: bbb\nb: bb\n", {"a": "aaa", "b": "bb"}),
    ("a: aa\n<<:\n  - b: bb\n  - c: cc\nd: dd\n", {"a": "aa", "b": "bb", "c": "cc", "d": "dd"}),
    (
        "a: &foo\n  beep: boop\nb:\n  <<: *foo\n  bleep: bloop\n",
        {"a": {"beep": "boop"}, "b": {"beep": "boop", "bleep": "bloop"}},
    ),
    (
        "a: aa\n!!merge doesnt-matter-what-is-here:\n  b: bb\n  c: cc\nd: dd\n",
        {"a": "aa", "b": "bb", "c": "cc", "d": "dd"},
    ),
    ("a: &x 1\nb: *x\n", {"a": 1, "b": 1}),
    ("a: 1\na: 2\n", {"a": 2}),
]


@pytest.mark.parametrize(("source", "expected"), YAML_DECODE_CASES)
def test_yamldecode(source: str, expected: Any) -> None:
    assert call("yamldecode", source) == expected


@pytest.mark.parametrize(
    ("source", "detail"),
    [
        ("a: b\n---\nc: d\n", "on line 1, column 0: only a single document is allowed"),
        ("a: .nan\n", "on line 0, column 3: floating point NaN is not supported"),
        ("a: *nope\n", 'on line 0, column 3: reference to undefined anchor "nope"'),
        ("a: !!bool maybe\n", 'on line 0, column 3: cannot parse "maybe" as tag:yaml.org,2002:bool'),
        ("a: !custom x\n", 'on line 0, column 3: unsupported tag "!custom"'),
        ("? [1]\n: x\n", "on line 0, column 2: only strings are allowed as mapping keys"),
        ("~: x\n", "on line 0, column 0: mapping key cannot be null"),
        ("a: &a [*a]\n", 'on line 0, column 7: cannot refer to anchor "a" from inside its own definition'),
    ],
)
def test_yamldecode_errors(source: str, detail: str) -> None:
    error = fails("yamldecode", source)
    assert (error.arg, error.message) == (0, call_error("yamldecode", detail))


def test_yamldecode_syntax_error_names_a_position() -> None:
    error = fails("yamldecode", "a: [1, 2\nb: c\n")
    assert re.fullmatch(r'Call to function "yamldecode" failed: on line \d+, column \d+: .+\.', error.message)


# --- networking ------------------------------------------------------------------------------

NET_CASES = [
    ("cidrhost", ["10.12.112.0/20", 16], "10.12.112.16"),
    ("cidrhost", ["10.12.112.0/20", 268], "10.12.113.12"),
    ("cidrhost", ["10.12.112.0/20", -1], "10.12.127.255"),
    ("cidrhost", ["10.12.112.5/20", 0], "10.12.112.0"),
    ("cidrhost", ["fd00:fd12:3456:7890:00a2::/72", 34], "fd00:fd12:3456:7890::22"),
    ("cidrhost", ["fd00:fd12:3456:7890::/56", 268], "fd00:fd12:3456:7800::10c"),
    ("cidrnetmask", ["172.16.0.0/12"], "255.240.0.0"),
    ("cidrnetmask", ["10.0.0.0/32"], "255.255.255.255"),
    ("cidrnetmask", ["fd00::/64"], "ffff:ffff:ffff:ffff::"),
    ("cidrsubnet", ["172.16.0.0/12", 4, 2], "172.18.0.0/16"),
    ("cidrsubnet", ["10.1.2.0/24", 4, 15], "10.1.2.240/28"),
    ("cidrsubnet", ["fd00:fd12:3456:7890::/56", 16, 162], "fd00:fd12:3456:7800:a200::/72"),
    ("cidrsubnet", ["10.0.0.0/8", 0, 0], "10.0.0.0/8"),
    (
        "cidrsubnets",
        ["10.1.0.0/16", 4, 4, 8, 4],
        ["10.1.0.0/20", "10.1.16.0/20", "10.1.32.0/24", "10.1.48.0/20"],
    ),
    (
        "cidrsubnets",
        ["fd00:fd12:3456:7890::/56", 16, 16, 16, 32],
        [
            "fd00:fd12:3456:7800::/72",
            "fd00:fd12:3456:7800:100::/72",
            "fd00:fd12:3456:7800:200::/72",
            "fd00:fd12:3456:7800:300::/88",
        ],
    ),
    ("cidrsubnets", ["10.0.0.0/24", 1, 1], ["10.0.0.0/25", "10.0.0.128/25"]),
    ("cidrsubnets", ["10.0.0.0/24"], []),
]


@pytest.mark.parametrize(("name", "args", "expected"), NET_CASES)
def test_cidr_functions(name: str, args: list[Any], expected: Any) -> None:
    assert call(name, *args) == expected


@pytest.mark.parametrize(
    ("name", "args", "index", "message"),
    [
        (
            "cidrhost",
            ["10.0.0.0/30", 4],
            1,
            call_error("cidrhost", "prefix of 30 does not accommodate a host numbered 4"),
        ),
        (
            "cidrhost",
            ["10.0.0.0/30", -5],
            1,
            call_error("cidrhost", "prefix of 30 does not accommodate a host numbered -5"),
        ),
        ("cidrhost", ["10.0.0.0/30", 1.5], None, call_error("cidrhost", WHOLE)),
        (
            "cidrhost",
            ["nope", 1],
            0,
            call_error("cidrhost", "invalid CIDR expression: invalid CIDR address: nope"),
        ),
        (
            "cidrhost",
            ["10.0.0.0", 1],
            0,
            call_error("cidrhost", "invalid CIDR expression: invalid CIDR address: 10.0.0.0"),
        ),
        (
            "cidrhost",
            ["010.0.0.0/8", 1],
            0,
            call_error("cidrhost", "invalid CIDR expression: invalid CIDR address: 010.0.0.0/8"),
        ),
        (
            "cidrhost",
            ["10.0.0.0/33", 1],
            0,
            call_error("cidrhost", "invalid CIDR expression: invalid CIDR address: 10.0.0.0/33"),
        ),
        (
            "cidrhost",
            ["fe80::1%eth0/64", 1],
            0,
            call_error("cidrhost", "invalid CIDR expression: invalid CIDR address: fe80::1%eth0/64"),
        ),
        (
            "cidrnetmask",
            ["x/8"],
            0,
            call_error("cidrnetmask", "invalid CIDR expression: invalid CIDR address: x/8"),
        ),
        (
            "cidrsubnet",
            ["10.0.0.0/24", 4, 16],
            2,
            call_error("cidrsubnet", "prefix extension of 4 does not accommodate a subnet numbered 16"),
        ),
        (
            "cidrsubnet",
            ["10.0.0.0/30", 4, 0],
            1,
            call_error("cidrsubnet", "insufficient address space to extend prefix of 30 by 4"),
        ),
        (
            "cidrsubnet",
            ["fd00::/56", 33, 0],
            1,
            call_error("cidrsubnet", "may not extend prefix by more than 32 bits"),
        ),
        (
            "cidrsubnets",
            ["10.0.0.0/24", 0],
            1,
            arg_error("newbits", "must extend prefix by at least one bit"),
        ),
        (
            "cidrsubnets",
            ["10.0.0.0/24", 33],
            1,
            arg_error("newbits", "may not extend prefix by more than 32 bits"),
        ),
        (
            "cidrsubnets",
            ["10.0.0.0/30", 4],
            1,
            arg_error("newbits", "would extend prefix to 34 bits, which is too long for an IPv4 address"),
        ),
        ("cidrsubnets", ["x", 1], 0, arg_error("prefix", "invalid CIDR expression: invalid CIDR address: x")),
        (
            "cidrsubnets",
            ["10.0.0.0/24", 1, 1, 1],
            3,
            arg_error(
                "newbits",
                "not enough remaining address space for a subnet with a prefix of 25 bits "
                "after 10.0.0.128/25",
            ),
        ),
    ],
)
def test_cidr_errors(name: str, args: list[Any], index: int | None, message: str) -> None:
    error = fails(name, *args)
    assert (error.arg, error.message) == (index, message)


# --- hashes, UUIDs, bcrypt, RSA ------------------------------------------------------------

CRYPTO_CASES = [
    ("md5", ["hello world"], "5eb63bbbe01eeed093cb22bb8f5acdc3"),
    ("md5", ["tada"], "ce47d07243bb6eaf5e1322c81baf9bbf"),
    ("md5", [" tada "], "aadf191a583e53062de2d02c008141c4"),
    ("md5", [""], "d41d8cd98f00b204e9800998ecf8427e"),
    ("sha1", ["test"], "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3"),
    ("sha256", ["test"], "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"),
    (
        "sha512",
        ["test"],
        "ee26b0dd4af7e749aa1a8ee3c10ae9923f618980772e473f8819a5d4940e0db2"
        "7ac185f8a0e1d5f84f88bc887fd67b143732c304cc5fa9ad8e6f57f50028a8ff",
    ),
    ("uuidv5", ["dns", "tada"], "faa898db-9b9d-5b75-86a9-149e7bb8e3b8"),
    ("uuidv5", ["url", "tada"], "2c1ff6b4-211f-577e-94de-d978b0caa16e"),
    ("uuidv5", ["oid", "tada"], "61eeea26-5176-5288-87fc-232d6ed30d2f"),
    ("uuidv5", ["x500", "tada"], "7e12415e-f7c9-57c3-9e43-52dc9950d264"),
    ("uuidv5", ["6ba7b810-9dad-11d1-80b4-00c04fd430c8", "tada"], "faa898db-9b9d-5b75-86a9-149e7bb8e3b8"),
    ("uuidv5", ["{6ba7b810-9dad-11d1-80b4-00c04fd430c8}", "tada"], "faa898db-9b9d-5b75-86a9-149e7bb8e3b8"),
    (
        "uuidv5",
        ["urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8", "tada"],
        "faa898db-9b9d-5b75-86a9-149e7bb8e3b8",
    ),
    ("uuidv5", ["6ba7b8109dad11d180b400c04fd430c8", "tada"], "faa898db-9b9d-5b75-86a9-149e7bb8e3b8"),
    ("uuidv5", ["dns", "www.terraform.io"], "a5008fae-b28c-5ba5-96cd-82b4c53552d6"),
    ("uuidv5", ["url", "https://www.terraform.io/"], "9db6f67c-dd95-5ea0-aa5b-e70e5c5f7cf5"),
]


@pytest.mark.parametrize(("name", "args", "expected"), CRYPTO_CASES)
def test_hash_and_uuid_functions(name: str, args: list[Any], expected: str) -> None:
    assert call(name, *args) == expected


@pytest.mark.parametrize(
    ("namespace", "problem"),
    [
        ("tada", "invalid UUID length: 4"),
        ("6ba7b810x9dad-11d1-80b4-00c04fd430c8", "invalid UUID format"),
        ("6ba7b810-9dad-11d1-80b4-00c04fd430cg", "invalid UUID format"),
        ("urx:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8", 'invalid urn prefix: "urx:uuid:"'),
    ],
)
def test_uuidv5_rejects_unknown_namespaces(namespace: str, problem: str) -> None:
    error = fails("uuidv5", namespace, "x")
    assert error.message == call_error(
        "uuidv5", f"uuidv5() doesn't support namespace {namespace} ({problem})"
    )


def test_uuidv4_is_random_and_version_4() -> None:
    first, second = call("uuidv4"), call("uuidv4")
    assert first != second
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", first)


BCRYPT_VECTORS = [
    (b"", "$2a$06$DCq7YPn5Rq63x1Lad4cll.", "TV4S6ytwfsfvkgY8jIucDrjc8deX1s."),
    (b"a", "$2a$06$m0CrhHm10qJ3lXRY.5zDGO", "3rS2KdeeWLuGmsfGlMfOxih58VYVfxe"),
    (b"abc", "$2a$06$If6bvum7DFjUnE9p2uDeDu", "0YHzrHM6tf.iqN8.yx.jNN1ILEf7h0i"),
    (b"abcdefghijklmnopqrstuvwxyz", "$2a$06$.rCVZVOThsIa97pEDOxvGu", "RRgzG64bvtJ0938xuqzv18d3ZpQhstC"),
]


@pytest.mark.parametrize(("password", "setting", "digest"), BCRYPT_VECTORS)
def test_bcrypt_pure_python_matches_published_vectors(password: bytes, setting: str, digest: str) -> None:
    salt = crypto._bcrypt_b64decode(setting[7:])
    assert crypto.bcrypt_hash(password, salt, 6, use_system=False) == setting + digest


def test_bcrypt_system_and_pure_python_agree() -> None:
    if crypto._libcrypt() is None:
        pytest.skip("no libxcrypt on this machine")
    salt = bytes(range(16))
    pure = crypto.bcrypt_hash(b"p\xc3\xa4ss", salt, 5, use_system=False)
    assert crypto.bcrypt_hash(b"p\xc3\xa4ss", salt, 5) == pure


def test_bcrypt_function_output_verifies() -> None:
    hashed = call("bcrypt", "hunter2", 4)
    assert re.fullmatch(r"\$2a\$04\$[./A-Za-z0-9]{53}", hashed)
    salt = crypto._bcrypt_b64decode(hashed[7:29])
    assert crypto.bcrypt_hash(b"hunter2", salt, 4, use_system=False) == hashed
    assert call("bcrypt", "hunter2", 3).startswith("$2a$10$")


@pytest.mark.parametrize(
    ("args", "detail"),
    [
        (["x", 4, 5], "bcrypt() takes no more than two arguments"),
        (
            ["x", 32],
            "error occured generating password crypto/bcrypt: "
            "cost 32 is outside allowed inclusive range 4..31",
        ),
        (["x" * 73], "error occured generating password bcrypt: password length exceeds 72 bytes"),
        (["x", 4.5], WHOLE),
    ],
)
def test_bcrypt_errors(args: list[Any], detail: str) -> None:
    assert fails("bcrypt", *args).message == call_error("bcrypt", detail)


RSA_CIPHERTEXT = (
    "eczGaDhXDbOFRZGhjx2etVzWbRqWDlmq0bvNt284JHVbwCgObiuyX9uV0LSAMY707IEgMkExJqXmsB4OWKxvB7epRB9G/3+F+pcr"
    "QpODlDuL9oDUAsa65zEpYF0Wbn7Oh7nrMQncyUPpyr9WUlALl0gRWytOA23S+y5joa4M34KFpawFgoqTu/2EEH4Xl1zo+0fy73fE"
    "to+nfkUY+meuyGZ1nUx/+DljP7ZqxHBFSlLODmtuTMdswUbHbXbWneW51D7Jm7xB8nSdiA2JQNK5+Sg5x8aNfgvFTt/m2w2+qpsy"
    "Fa5Wjeu6fZmXSl840CA07aXbk9vN4I81WmJyblD/ZA=="
)
RSA_KEY_BODY = """MIIEowIBAAKCAQEAgUElV5mwqkloIrM8ZNZ72gSCcnSJt7+/Usa5G+D15YQUAdf9
c1zEekTfHgDP+04nw/uFNFaE5v1RbHaPxhZYVg5ZErNCa/hzn+x10xzcepeS3KPV
Xcxae4MR0BEegvqZqJzN9loXsNL/c3H/B+2Gle3hTxjlWFb3F5qLgR+4Mf4ruhER
1v6eHQa/nchi03MBpT4UeJ7MrL92hTJYLdpSyCqmr8yjxkKJDVC2uRrr+sTSxfh7
r6v24u/vp/QTmBIAlNPgadVAZw17iNNb7vjV7Gwl/5gHXonCUKURaV++dBNLrHIZ
pqcAM8wHRph8mD1EfL9hsz77pHewxolBATV+7QIDAQABAoIBAC1rK+kFW3vrAYm3
+8/fQnQQw5nec4o6+crng6JVQXLeH32qXShNf8kLLG/Jj0vaYcTPPDZw9JCKkTMQ
0mKj9XR/5DLbBMsV6eNXXuvJJ3x4iKW5eD9WkLD4FKlNarBRyO7j8sfPTqXW7uat
NxWdFH7YsSRvNh/9pyQHLWA5OituidMrYbc3EUx8B1GPNyJ9W8Q8znNYLfwYOjU4
Wv1SLE6qGQQH9Q0WzA2WUf8jklCYyMYTIywAjGb8kbAJlKhmj2t2Igjmqtwt1PYc
pGlqbtQBDUiWXt5S4YX/1maIQ/49yeNUajjpbJiH3DbhJbHwFTzP3pZ9P9GHOzlG
kYR+wSECgYEAw/Xida8kSv8n86V3qSY/I+fYQ5V+jDtXIE+JhRnS8xzbOzz3v0WS
Oo5H+o4nJx5eL3Ghb3Gcm0Jn46dHrxinHbm+3RjXv/X6tlbxIYjRSQfHOTSMCTvd
qcliF5vC6RCLXuc7R+IWR1Ky6eDEZGtrvt3DyeYABsp9fRUFR/6NluUCgYEAqNsw
1aSl7WJa27F0DoJdlU9LWerpXcazlJcIdOz/S9QDmSK3RDQTdqfTxRmrxiYI9LEs
mkOkvzlnnOBMpnZ3ZOU5qIRfprecRIi37KDAOHWGnlC0EWGgl46YLb7/jXiWf0AG
Y+DfJJNd9i6TbIDWu8254/erAS6bKMhW/3q7f2kCgYAZ7Id/BiKJAWRpqTRBXlvw
BhXoKvjI2HjYP21z/EyZ+PFPzur/lNaZhIUlMnUfibbwE9pFggQzzf8scM7c7Sf+
mLoVSdoQ/Rujz7CqvQzi2nKSsM7t0curUIb3lJWee5/UeEaxZcmIufoNUrzohAWH
BJOIPDM4ssUTLRq7wYM9uQKBgHCBau5OP8gE6mjKuXsZXWUoahpFLKwwwmJUp2vQ
pOFPJ/6WZOlqkTVT6QPAcPUbTohKrF80hsZqZyDdSfT3peFx4ZLocBrS56m6NmHR
UYHMvJ8rQm76T1fryHVidz85g3zRmfBeWg8yqT5oFg4LYgfLsPm1gRjOhs8LfPvI
OLlRAoGBAIZ5Uv4Z3s8O7WKXXUe/lq6j7vfiVkR1NW/Z/WLKXZpnmvJ7FgxN4e56
RXT7GwNQHIY8eDjDnsHxzrxd+raOxOZeKcMHj3XyjCX3NHfTscnsBPAGYpY/Wxzh
T8UYnFu6RzkixElTf2rseEav7rkdKkI3LAeIZy7B0HulKKsmqVQ7"""
RSA_KEY = f"\n-----BEGIN RSA PRIVATE KEY-----\n{RSA_KEY_BODY}\n-----END RSA PRIVATE KEY-----\n"
WRONG_RSA_KEY = """-----BEGIN RSA PRIVATE KEY-----
MIIEowIBAAKCAQEAlrCgnEVgmNKCq7KPc+zUU5IrxPu1ClMNJS7RTsTPEkbwe5SB
p+6V6WtCbD/X/lDRRGbOENChh1Phulb7lViqgrdpHydgsrKoS5ah3DfSIxLFLE00
9Yo4TCYwgw6+s59j16ZAFVinaQ9l6Kmrb2ll136hMrz8QKh+qw+onOLd38WFgm+W
ZtUqSXf2LANzfzzy4OWFNyFqKaCAolSkPdTS9Nz+svtScvp002DQp8OdP1AgPO+l
o5N3M38Fftapwg0pCtJ5Zq0NRWIXEonXiTEMA6zy3gEZVOmDxoIFUWnmrqlMJLFy
5S6LDrHSdqJhCxDK6WRZj43X9j8spktk3eGhMwIDAQABAoIBAAem8ID/BOi9x+Tw
LFi2rhGQWqimH4tmrEQ3HGnjlKBY+d1MrUjZ1MMFr1nP5CgF8pqGnfA8p/c3Sz8r
K5tp5T6+EZiDZ2WrrOApxg5ox0MAsQKO6SGO40z6o3wEQ6rbbTaGOrraxaWQIpyu
AQanU4Sd6ZGqByVBaS1GnklZO+shCHqw73b7g1cpLEmFzcYnKHYHlUUIsstMe8E1
BaCY0CH7JbWBjcbiTnBVwIRZuu+EjGiQuhTilYL2OWqoMVg1WU0L2IFpR8lkf/2W
SBx5J6xhwbBGASOpM+qidiN580GdPzGhWYSqKGroHEzBm6xPSmV1tadNA26WFG4p
pthLiAECgYEA5BsPRpNYJAQLu5B0N7mj9eEp0HABVEgL/MpwiImjaKdAwp78HM64
IuPvJxs7r+xESiIz4JyjR8zrQjYOCKJsARYkmNlEuAz0SkHabCw1BdEBwUhjUGVB
efoERK6GxfAoNqmSDwsOvHFOtsmDIlbHmg7G2rUxNVpeou415BSB0B8CgYEAqR4J
YHKk2Ibr9rU+rBU33TcdTGw0aAkFNAVeqM9j0haWuFXmV3RArgoy09lH+2Ha6z/g
fTX2xSDAWV7QUlLOlBRIhurPAo2jO2yCrGHPZcWiugstrR2hTTInigaSnCmK3i7F
6sYmL3S7K01IcVNxSlWvGijtClT92Cl2WUCTfG0CgYAiEjyk4QtQTd5mxLvnOu5X
oqs5PBGmwiAwQRiv/EcRMbJFn7Oupd3xMDSflbzDmTnWDOfMy/jDl8MoH6TW+1PA
kcsjnYhbKWwvz0hN0giVdtOZSDO1ZXpzOrn6fEsbM7T9/TQY1SD9WrtUKCNTNL0Z
sM1ZC6lu+7GZCpW4HKwLJwKBgQCRT0yxQXBg1/UxwuO5ynV4rx2Oh76z0WRWIXMH
S0MyxdP1SWGkrS/SGtM3cg/GcHtA/V6vV0nUcWK0p6IJyjrTw2XZ/zGluPuTWJYi
9dvVT26Vunshrz7kbH7KuwEICy3V4IyQQHeY+QzFlR70uMS0IVFWAepCoWqHbIDT
CYhwNQKBgGPcLXmjpGtkZvggl0aZr9LsvCTckllSCFSI861kivL/rijdNoCHGxZv
dfDkLTLcz9Gk41rD9Gxn/3sqodnTAc3Z2PxFnzg1Q/u3+x6YAgBwI/g/jE2xutGW
H7CurtMwALQ/n/6LUKFmjRZjqbKX9SO2QSaC3grd6sY9Tu+bZjLe
-----END RSA PRIVATE KEY-----
"""


def _der(tag: int, body: bytes) -> bytes:
    """A DER TLV (test helper for wrapping the PKCS #1 key in PKCS #8)."""
    size = len(body)
    length = (
        bytes([size])
        if size < 128
        else bytes([0x80 | ((size.bit_length() + 7) // 8)])
        + size.to_bytes((size.bit_length() + 7) // 8, "big")
    )
    return bytes([tag]) + length + body


def _pkcs8_key() -> str:
    import base64

    pkcs1 = base64.b64decode("".join(RSA_KEY_BODY.split()))
    algorithm = _der(0x30, _der(0x06, bytes.fromhex("2a864886f70d010101")) + _der(0x05, b""))
    der = _der(0x30, _der(0x02, b"\x00") + algorithm + _der(0x04, pkcs1))
    body = base64.b64encode(der).decode()
    lines = "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    return f"-----BEGIN PRIVATE KEY-----\n{lines}\n-----END PRIVATE KEY-----\n"


def test_rsadecrypt_published_vector() -> None:
    assert call("rsadecrypt", RSA_CIPHERTEXT, RSA_KEY) == "message"


@pytest.mark.parametrize(
    ("args", "index", "detail"),
    [
        ([RSA_CIPHERTEXT, WRONG_RSA_KEY], 0, "crypto/rsa: decryption error"),
        ([RSA_CIPHERTEXT, "bad key"], 1, "failed to parse key: no key found"),
        ([RSA_CIPHERTEXT, ""], 1, "failed to parse key: no key found"),
        (
            ["bad cipher", RSA_KEY],
            0,
            'failed to decode input "bad cipher": cipher text must be base64-encoded',
        ),
        (["", RSA_KEY], 0, "crypto/rsa: decryption error"),
        (
            [RSA_CIPHERTEXT, RSA_KEY.replace("-----\n", "-----\nProc-Type: 4,ENCRYPTED\n\n", 1)],
            1,
            "failed to parse key: password protected keys are not supported. "
            "Please decrypt the key prior to use",
        ),
    ],
)
def test_rsadecrypt_errors(args: list[str], index: int, detail: str) -> None:
    error = fails("rsadecrypt", *args)
    assert (error.arg, error.message) == (index, call_error("rsadecrypt", detail))


def test_rsadecrypt_refuses_pkcs8_like_nomad() -> None:
    error = fails("rsadecrypt", RSA_CIPHERTEXT, _pkcs8_key())
    assert error.message == call_error(
        "rsadecrypt",
        "x509: failed to parse private key (use ParsePKCS8PrivateKey instead for this key format)",
    )


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")
def test_rsadecrypt_openssl_round_trip(tmp_path: Path) -> None:
    import base64

    key = tmp_path / "key.pem"
    subprocess.run(
        [
            "openssl",
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            "rsa_keygen_bits:1024",
            "-out",
            str(tmp_path / "k8"),
        ],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        ["openssl", "rsa", "-traditional", "-in", str(tmp_path / "k8"), "-out", str(key)],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        ["openssl", "pkey", "-in", str(key), "-pubout", "-out", str(tmp_path / "pub")],
        check=True,
        capture_output=True,
    )
    (tmp_path / "msg").write_text("GPU secret ✓", encoding="utf-8")
    cipher = subprocess.run(
        [
            "openssl",
            "pkeyutl",
            "-encrypt",
            "-pubin",
            "-inkey",
            str(tmp_path / "pub"),
            "-in",
            str(tmp_path / "msg"),
            "-pkeyopt",
            "rsa_padding_mode:pkcs1",
        ],
        check=True,
        capture_output=True,
    ).stdout
    assert key.read_text().startswith("-----BEGIN RSA PRIVATE KEY-----")
    assert call("rsadecrypt", base64.b64encode(cipher).decode(), key.read_text()) == "GPU secret ✓"


# --- time ---------------------------------------------------------------------------------

TIME_CASES = [
    ("formatdate", ["DD MMM YYYY hh:mm ZZZ", "2018-01-02T23:12:01Z"], "02 Jan 2018 23:12 UTC"),
    (
        "formatdate",
        ["EEEE, DD-MMM-YY hh:mm:ss ZZZ", "2018-01-02T23:12:01Z"],
        "Tuesday, 02-Jan-18 23:12:01 UTC",
    ),
    (
        "formatdate",
        ["EEE, DD MMM YYYY hh:mm:ss ZZZ", "2018-01-02T23:12:01-08:00"],
        "Tue, 02 Jan 2018 23:12:01 -0800",
    ),
    ("formatdate", ["MMM DD, YYYY", "2018-01-02T23:12:01Z"], "Jan 02, 2018"),
    ("formatdate", ["HH:mmaa", "2018-01-02T23:12:01Z"], "11:12pm"),
    ("formatdate", ["H AA", "2018-01-02T00:05:00Z"], "12 AM"),
    ("formatdate", ["D M YY h m s", "2018-01-02T03:04:05Z"], "2 1 18 3 4 5"),
    ("formatdate", ["MMMM", "2018-09-02T03:04:05Z"], "September"),
    ("formatdate", ["h 'o''clock' ''", "2018-01-02T23:12:01Z"], "23 o'clock '"),
    ("formatdate", ["Z ZZZZ ZZZZZ ZZZ", "2018-01-02T23:12:01+05:30"], "+05:30 +0530 +05:30 +0530"),
    ("formatdate", ["Z ZZZZ ZZZZZ", "2018-01-02T23:12:01Z"], "Z +0000 +00:00"),
    ("formatdate", ["YYYY-MM-DD", "2018-01-02T23:12:01.123456789Z"], "2018-01-02"),
    ("formatdate", ["DD/MM/YYYY!", "2020-02-29T00:00:00Z"], "29/02/2020!"),
    ("timeadd", ["2017-11-22T00:00:00Z", "10m"], "2017-11-22T00:10:00Z"),
    ("timeadd", ["2017-11-22T00:00:00Z", "-1h"], "2017-11-21T23:00:00Z"),
    ("timeadd", ["2017-11-22T00:00:00Z", "1h30m"], "2017-11-22T01:30:00Z"),
    ("timeadd", ["2017-11-22T00:00:00Z", "1.5h"], "2017-11-22T01:30:00Z"),
    ("timeadd", ["2017-11-22T00:00:00+01:00", "-1.5h"], "2017-11-21T22:30:00+01:00"),
    ("timeadd", ["2017-11-22T00:00:00+00:00", "1s"], "2017-11-22T00:00:01Z"),
    ("timeadd", ["2017-11-22T00:00:00.8Z", "300ms"], "2017-11-22T00:00:01Z"),
    ("timeadd", ["2017-11-22T00:00:00.9Z", "2us"], "2017-11-22T00:00:00Z"),
    ("timeadd", ["2017-11-22T00:00:00Z", "1µs"], "2017-11-22T00:00:00Z"),
    ("timeadd", ["2017-11-22T00:00:00Z", "0"], "2017-11-22T00:00:00Z"),
    ("timeadd", ["2020-02-28T12:00:00+01:00", "24h"], "2020-02-29T12:00:00+01:00"),
    ("timeadd", ["2017-12-31T23:59:59Z", "1s"], "2018-01-01T00:00:00Z"),
    ("timeadd", ["2017-11-22T00:00:00Z", "+8760h"], "2018-11-22T00:00:00Z"),
]


@pytest.mark.parametrize(("name", "args", "expected"), TIME_CASES)
def test_time_functions(name: str, args: list[Any], expected: str) -> None:
    assert call(name, *args) == expected


@pytest.mark.parametrize(
    ("name", "args", "index", "message"),
    [
        (
            "formatdate",
            ["YYY", "2018-01-02T23:12:01Z"],
            0,
            arg_error("format", 'invalid date format verb "YYY": year must either be "YY" or "YYYY"'),
        ),
        (
            "formatdate",
            ["MMMMM", "2018-01-02T23:12:01Z"],
            0,
            arg_error(
                "format", 'invalid date format verb "MMMMM": month must be "M", "MM", "MMM", or "MMMM"'
            ),
        ),
        (
            "formatdate",
            ["ZZ", "2018-01-02T23:12:01Z"],
            0,
            arg_error("format", 'invalid date format verb "ZZ": timezone must be Z, ZZZZ, or ZZZZZ'),
        ),
        (
            "formatdate",
            ["A", "2018-01-02T23:12:01Z"],
            0,
            arg_error("format", 'invalid date format verb "A": must be "AA"'),
        ),
        ("formatdate", ["X", "2018-01-02T23:12:01Z"], 0, arg_error("format", 'invalid date format verb "X"')),
        ("formatdate", ["'abc", "2018-01-02T23:12:01Z"], 0, arg_error("format", "unterminated literal '")),
        (
            "formatdate",
            ["YYYY", "2018-01-02"],
            1,
            arg_error("time", "not a valid RFC3339 timestamp: missing required time introducer 'T'"),
        ),
        (
            "formatdate",
            ["YYYY", "2018-13-01T00:00:00Z"],
            1,
            arg_error("time", 'not a valid RFC3339 timestamp: cannot use "-01T00:00:00Z" as month'),
        ),
        (
            "formatdate",
            ["YYYY", "2018-02-30T00:00:00Z"],
            1,
            arg_error("time", "not a valid RFC3339 timestamp: day out of range"),
        ),
        (
            "formatdate",
            ["YYYY", "2018-01-02T00:00:00"],
            1,
            arg_error("time", "not a valid RFC3339 timestamp: end of string before UTC offset"),
        ),
        (
            "formatdate",
            ["YYYY", "2018-01-02T00:00:00Zjunk"],
            1,
            arg_error("time", 'not a valid RFC3339 timestamp: cannot use "junk" as timestamp segment'),
        ),
        (
            "formatdate",
            ["YYYY", "18-01-02T00:00:00Z"],
            1,
            arg_error("time", 'not a valid RFC3339 timestamp: cannot use "18-01-02T00:00:00Z" as year'),
        ),
        (
            "formatdate",
            ["YYYY", "2018/01/02T00:00:00Z"],
            1,
            arg_error(
                "time", 'not a valid RFC3339 timestamp: found "/01/02T00:00:00Z" where "-" is expected'
            ),
        ),
        (
            "formatdate",
            ["YYYY", "2018-01-02T25:00:00Z"],
            1,
            arg_error("time", "not a valid RFC3339 timestamp: hour must be between 0 and 23 inclusive"),
        ),
        (
            "formatdate",
            ["YYYY", "2018-01-02T1:00:00Z"],
            1,
            arg_error("time", "not a valid RFC3339 timestamp: hour must have exactly two digits"),
        ),
        (
            "formatdate",
            ["YYYY", "2018-01-02T10:5:00Z"],
            1,
            arg_error("time", "not a valid RFC3339 timestamp: minute must have exactly two digits"),
        ),
        (
            "formatdate",
            ["YYYY", "2018-01-02T10:00:00,5Z"],
            1,
            arg_error("time", 'not a valid RFC3339 timestamp: cannot use "," as timestamp segment'),
        ),
        (
            "formatdate",
            ["YYYY", "2018-01-02T10:00:00+24:00"],
            1,
            arg_error("time", 'not a valid RFC3339 timestamp: cannot use "+24:00" as UTC offset'),
        ),
        (
            "formatdate",
            ["YYYY", "2018-01-02T10:00:00+25:00"],
            1,
            arg_error("time", "not a valid RFC3339 timestamp: end of string before UTC offset"),
        ),
        (
            "formatdate",
            ["YYYY", "2018-01-02T10:00:00+0100"],
            1,
            arg_error("time", 'not a valid RFC3339 timestamp: cannot use "+0100" as UTC offset'),
        ),
        (
            "timeadd",
            ["2017-11-22", "1h"],
            0,
            call_error("timeadd", "not a valid RFC3339 timestamp: missing required time introducer 'T'"),
        ),
        (
            "timeadd",
            ["2017-11-22T00:00:00Z", "1"],
            1,
            call_error("timeadd", 'time: missing unit in duration "1"'),
        ),
        (
            "timeadd",
            ["2017-11-22T00:00:00Z", "1x"],
            1,
            call_error("timeadd", 'time: unknown unit "x" in duration "1x"'),
        ),
        ("timeadd", ["2017-11-22T00:00:00Z", ""], 1, call_error("timeadd", 'time: invalid duration ""')),
        ("timeadd", ["2017-11-22T00:00:00Z", "h"], 1, call_error("timeadd", 'time: invalid duration "h"')),
        ("timeadd", ["2017-11-22T00:00:00Z", ".h"], 1, call_error("timeadd", 'time: invalid duration ".h"')),
        (
            "timeadd",
            ["2017-11-22T00:00:00Z", "9999999999999h"],
            1,
            call_error("timeadd", 'time: invalid duration "9999999999999h"'),
        ),
    ],
)
def test_time_errors(name: str, args: list[str], index: int, message: str) -> None:
    error = fails(name, *args)
    assert (error.arg, error.message) == (index, message)


# --- file system ---------------------------------------------------------------------------


@pytest.fixture
def job_dir(tmp_path: Path) -> Path:
    """A job directory with files, a subdirectory, and a symlink pointing outside it."""
    job = tmp_path / "job"
    (job / "conf" / "deep").mkdir(parents=True)
    (job / "hello.txt").write_text("Hello World", encoding="utf-8")
    (job / "conf" / "a.hcl").write_text("a", encoding="utf-8")
    (job / "conf" / "b.tpl").write_text("b", encoding="utf-8")
    (job / "conf" / "deep" / "c.hcl").write_text("c", encoding="utf-8")
    (job / "binary.bin").write_bytes(b"\xff\xfe\x00")
    (tmp_path / "secret.txt").write_text("outside", encoding="utf-8")
    (job / "link.txt").symlink_to(tmp_path / "secret.txt")
    (job / "inner-link.txt").symlink_to(job / "hello.txt")
    return job


def fs_call(base: Path, allow_fs: bool, name: str, *args: Any) -> Any:
    """Call a file function bound to ``base``."""
    return file_functions(base, allow_fs)[name].impl(*args)


def fs_fails(base: Path, allow_fs: bool, name: str, *args: Any) -> FunctionError:
    """Call a file function that must fail."""
    with pytest.raises(FunctionError) as info:
        fs_call(base, allow_fs, name, *args)
    return info.value


@pytest.mark.parametrize("allow_fs", [False, True])
def test_file_reads_inside_the_job_directory(job_dir: Path, allow_fs: bool) -> None:
    assert fs_call(job_dir, allow_fs, "file", "hello.txt") == "Hello World"
    assert fs_call(job_dir, allow_fs, "file", "./conf/../hello.txt") == "Hello World"
    assert fs_call(job_dir, allow_fs, "file", str(job_dir / "hello.txt")) == "Hello World"
    assert fs_call(job_dir, allow_fs, "file", "inner-link.txt") == "Hello World"
    assert fs_call(job_dir, allow_fs, "filebase64", "hello.txt") == "SGVsbG8gV29ybGQ="
    assert fs_call(job_dir, allow_fs, "filebase64", "binary.bin") == "//4A"
    assert fs_call(job_dir, allow_fs, "fileexists", "hello.txt") is True
    assert fs_call(job_dir, allow_fs, "fileexists", "missing.txt") is False


@pytest.mark.parametrize("path", ["../secret.txt", "SECRET", "link.txt", "conf/../../secret.txt"])
def test_file_refuses_paths_outside_the_job_directory(job_dir: Path, path: str) -> None:
    target = str(job_dir.parent / "secret.txt") if path == "SECRET" else path
    for name in ("file", "filebase64", "fileexists", "abspath"):
        error = fs_fails(job_dir, False, name, target)
        assert error.arg == 0
        assert "the folder file functions read from" in error.message
        assert "--allow-fs" in error.message
        assert error.message.startswith(f'Call to function "{name}" failed: ')


def test_file_refuses_etc_passwd_without_allow_fs(job_dir: Path) -> None:
    error = fs_fails(job_dir, False, "file", "/etc/passwd")
    assert "the folder file functions read from" in error.message


@pytest.mark.parametrize("path", ["../secret.txt", "link.txt"])
def test_allow_fs_reads_anywhere(job_dir: Path, path: str) -> None:
    assert fs_call(job_dir, True, "file", path) == "outside"
    assert fs_call(job_dir, True, "fileexists", path) is True


@pytest.mark.skipif(not Path("/etc/passwd").is_file(), reason="no /etc/passwd here")
def test_allow_fs_reads_absolute_paths(job_dir: Path) -> None:
    assert fs_call(job_dir, True, "file", "/etc/passwd") == Path("/etc/passwd").read_text(encoding="utf-8")


def test_file_errors(job_dir: Path) -> None:
    missing = fs_fails(job_dir, True, "file", "missing.txt")
    assert missing.message == call_error("file", f"no file exists at {job_dir}/missing.txt")
    directory = fs_fails(job_dir, True, "file", "conf")
    assert directory.message == call_error("file", f"failed to read {job_dir}/conf")
    binary = fs_fails(job_dir, True, "file", "binary.bin")
    assert binary.message == call_error(
        "file",
        "contents of binary.bin are not valid UTF-8; use the filebase64 function to obtain the Base64 "
        "encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing "
        "results instead",
    )
    not_regular = fs_fails(job_dir, True, "fileexists", "conf")
    assert not_regular.message.startswith(
        f'Call to function "fileexists" failed: {job_dir}/conf is not a regular file, but "d'
    )


def test_fileset(job_dir: Path) -> None:
    assert fs_call(job_dir, False, "fileset", ".", "conf/*.hcl") == ["conf/a.hcl"]
    assert fs_call(job_dir, False, "fileset", "conf", "**/*.hcl") == ["a.hcl", "deep/c.hcl"]
    assert fs_call(job_dir, False, "fileset", "conf", "{a,b}.*") == ["a.hcl", "b.tpl"]
    assert fs_call(job_dir, False, "fileset", "conf", "[ab].???") == ["a.hcl", "b.tpl"]
    assert fs_call(job_dir, False, "fileset", "conf", "[!a]*") == ["b.tpl"]
    assert fs_call(job_dir, False, "fileset", "conf", "*") == ["a.hcl", "b.tpl"]
    assert fs_call(job_dir, False, "fileset", "conf", "nothing*") == []
    assert fs_call(job_dir, False, "fileset", str(job_dir / "conf"), "deep/c.hcl") == ["deep/c.hcl"]
    error = fs_fails(job_dir, False, "fileset", "conf", "[a")
    assert error.message == call_error(
        "fileset", f"failed to glob pattern ({job_dir}/conf/[a): syntax error in pattern"
    )


def test_fileset_is_confined(job_dir: Path) -> None:
    error = fs_fails(job_dir, False, "fileset", "..", "*.txt")
    assert "the folder file functions read from" in error.message
    error = fs_fails(job_dir, False, "fileset", ".", "*.txt")
    assert "link.txt" in error.message
    assert fs_call(job_dir, True, "fileset", ".", "*.txt") == ["hello.txt", "inner-link.txt", "link.txt"]
    assert fs_call(job_dir, True, "fileset", "..", "*.txt") == ["secret.txt"]


@pytest.mark.parametrize(
    ("name", "path", "expected"),
    [
        ("basename", "foo/bar/baz.txt", "baz.txt"),
        ("basename", "foo/bar/", "bar"),
        ("basename", "/", "/"),
        ("basename", "", "."),
        ("dirname", "foo/bar/baz.txt", "foo/bar"),
        ("dirname", "foo/bar/", "foo/bar"),
        ("dirname", "baz.txt", "."),
        ("dirname", "/baz.txt", "/"),
        ("dirname", "", "."),
        ("dirname", "a//b/../c/d", "a/c"),
    ],
)
def test_basename_and_dirname_are_plain_string_functions(
    job_dir: Path, name: str, path: str, expected: str
) -> None:
    assert fs_call(job_dir, False, name, path) == expected


def test_abspath(job_dir: Path) -> None:
    assert fs_call(job_dir, False, "abspath", "conf/a.hcl") == f"{job_dir}/conf/a.hcl"
    assert fs_call(job_dir, False, "abspath", ".") == str(job_dir)
    assert fs_call(job_dir, True, "abspath", "../x") == f"{job_dir.parent}/x"


def test_pathexpand(job_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/someone")
    assert fs_call(job_dir, False, "pathexpand", "plain/path") == "plain/path"
    error = fs_fails(job_dir, False, "pathexpand", "~/.ssh/id_rsa")
    assert "/home/someone" not in error.message
    assert "--allow-fs" in error.message
    assert fs_call(job_dir, True, "pathexpand", "~/.ssh/id_rsa") == "/home/someone/.ssh/id_rsa"
    assert fs_call(job_dir, True, "pathexpand", "~") == "/home/someone"
    error = fs_fails(job_dir, True, "pathexpand", "~other/x")
    assert error.message == call_error(
        "pathexpand", "failed to expand ~: cannot expand user-specific home dir"
    )
    error = fs_fails(job_dir, False, "file", "~/x")
    assert "home directory" in error.message


# --- robustness ------------------------------------------------------------------------------

SAMPLES: list[Any] = [
    None,
    True,
    0,
    -1,
    2,
    0.5,
    1e20,
    "",
    "a",
    "%d",
    "10.0.0.0/8",
    [],
    [1, "a"],
    {},
    {"a": 1},
]


@pytest.mark.parametrize("name", sorted(NOMAD_PURE - {"bcrypt", "uuidv4"}))
def test_no_python_exception_escapes(name: str) -> None:
    function = FUNCTIONS[name]
    arities = range(function.min_args, (function.max_args if function.max_args is not None else 3) + 1)
    for arity in arities:
        if arity > 3:
            continue
        for args in _combinations(arity):
            with contextlib.suppress(EvalError):
                function.impl(*args)


def _combinations(arity: int) -> list[list[Any]]:
    """Argument lists of the given length drawn from SAMPLES (a bounded subset for arity 3)."""
    if arity == 0:
        return [[]]
    if arity == 1:
        return [[s] for s in SAMPLES]
    if arity == 2:
        return [[a, b] for a in SAMPLES for b in SAMPLES]
    return [[a, b, c] for a in SAMPLES for b in SAMPLES[:8] for c in SAMPLES[::2]]


def test_the_lazy_index_names_each_function_in_the_module_that_defines_it() -> None:
    from importlib import import_module

    from hclgpu.eval.functions import MODULES

    for module, names in MODULES.items():
        defined = {function.name for function in import_module(f"hclgpu.eval.functions.{module}").TABLE}
        assert defined == set(names), module


def test_checking_a_job_loads_only_the_function_families_it_calls(tmp_path: Path) -> None:
    import subprocess
    import sys

    job = tmp_path / "job.hcl"
    job.write_text('job "j" {\n  meta { a = upper("x") }\n}\n')
    code = (
        "import sys; from hclgpu.cli import main; main(['check', sys.argv[1]]);"
        "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules if m.startswith('hclgpu.eval.functions.')))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(job)], capture_output=True, text=True, check=True)
    loaded = out.stdout.split("\n")[-2]
    assert "'text'" in loaded and "yaml_codec" not in loaded and "crypto" not in loaded
