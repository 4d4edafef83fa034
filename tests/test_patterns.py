"""RE2 (Go regexp), go-version and Nomad semver: acceptance, messages and matching.

Expected messages are Go's own (``regexp/syntax`` error code and expression), checked
against Go's regexp; the cases for syntax newer than Go 1.21 (``(?<name>``, loose ``\\p``
names, ``expression too large``) follow the current ``regexp/syntax/parse.go``.
"""

from __future__ import annotations

import pytest

from hclgpu.re2 import re2_problem, re2_search
from hclgpu.units.versions import (
    semver_constraint_problem,
    semver_matches,
    version_constraint_problem,
    version_matches,
)

# --- RE2 acceptance ----------------------------------------------------------------------------

ACCEPTED = [
    r"A100|H100",
    r"^Tesla",
    r"\pL",
    r"\PL",
    r"\p{Greek}",
    r"\p{^Greek}",
    r"\p{Lu}",
    r"\p{Braille}",
    r"\p{Any}",
    r"[\p{Lu}\d_]",
    r"[[:alpha:]]",
    r"[[:^digit:]x]",
    r"(?P<name>a)",
    r"(?<name>a)",  # Go 1.22+
    r"(?P<1>a)(?P<1>b)",  # Go neither rejects digit-first nor duplicate names
    r"\Qa.b*c\E",
    r"\Qno end",
    r"(?U)a+",
    r"(?i)tesla",
    r"(?i:a)b",
    r"(?i-s:a.)",
    r"(?)",
    r"(?s).",
    r"(?m)^a$",
    r"\A\z\b\B",
    r"\x41\x{263a}\x{10FFFF}\101\0\a\f\n\r\t\v",
    r"\.\*\_\ \-",
    r"[]a]",
    r"[a-]",
    r"[\d-z]",
    r"[a-b-c]",
    r"a{,2}",  # not a repetition: literal text
    r"x{1001",
    r"{",
    r"a{1000}",
    r"(?:[a-z]{4}){0,250}",  # nested product exactly 1000
    r"(?:a{1000}){0}",
    r"^*",  # Go repeats an empty-width assertion
    r"()+",
    r"a*?b+?c??d{2}?",
    "(" * 999 + ")" * 999,
    "(?:" * 999 + ")*" * 999,
    "(" + "|" * 2000 + ")",
    "",
]


@pytest.mark.parametrize("pattern", ACCEPTED)
def test_re2_accepts(pattern: str) -> None:
    assert re2_problem(pattern) is None


REJECTED = [
    # Perl syntax RE2 does not have (Python accepts all of these)
    (r"(?=a)", "invalid or unsupported Perl syntax: `(?=`"),
    (r"a(?!b)", "invalid or unsupported Perl syntax: `(?!`"),
    (r"(?<=a)b", "invalid named capture: `(?<=a)b`"),  # Go 1.22+ reads (?< as a name
    (r"(?<!a)b", "invalid named capture: `(?<!a)b`"),
    (r"(?>a)", "invalid or unsupported Perl syntax: `(?>`"),
    (r"(?(1)a|b)", "invalid or unsupported Perl syntax: `(?(`"),
    (r"(?#comment)", "invalid or unsupported Perl syntax: `(?#`"),
    (r"(?x)a b", "invalid or unsupported Perl syntax: `(?x`"),
    (r"(?P=name)", "invalid or unsupported Perl syntax: `(?P`"),
    (r"(?-)", "invalid or unsupported Perl syntax: `(?-)`"),
    (r"(?i-)", "invalid or unsupported Perl syntax: `(?i-)`"),
    (r"(?--i)", "invalid or unsupported Perl syntax: `(?--`"),
    (r"(?i", "invalid or unsupported Perl syntax: `(?i`"),
    (r"(a)\1", "invalid escape sequence: `\\1`"),
    (r"\k<name>", "invalid escape sequence: `\\k`"),
    (r"a\Z", "invalid escape sequence: `\\Z`"),
    (r"\e", "invalid escape sequence: `\\e`"),
    (r"\8", "invalid escape sequence: `\\8`"),
    (r"\C", "invalid escape sequence: `\\C`"),
    (r"[\b]", "invalid escape sequence: `\\b`"),
    (r"\x{110000}", "invalid escape sequence: `\\x{110000`"),
    (r"\x{}", "invalid escape sequence: `\\x{}`"),
    (r"\xg1", "invalid escape sequence: `\\xg1`"),
    (r"\x4", "invalid escape sequence: `\\x4`"),
    (r"[a-\d]", "invalid escape sequence: `\\d`"),
    ("é\\é", "invalid escape sequence: `\\é`"),
    ("\\", "trailing backslash at end of expression: ``"),
    # repetition
    (r"a*+", "invalid nested repetition operator: `*+`"),
    (r"a++", "invalid nested repetition operator: `++`"),
    (r"a**", "invalid nested repetition operator: `**`"),
    (r"a*??", "invalid nested repetition operator: `*??`"),
    (r"x{2}{3}", "invalid nested repetition operator: `{2}{3}`"),
    (r"*a", "missing argument to repetition operator: `*`"),
    (r"a|*", "missing argument to repetition operator: `*`"),
    (r"(+)", "missing argument to repetition operator: `+`"),
    (r"(?i)?", "missing argument to repetition operator: `?`"),
    (r"\Q\E*", "missing argument to repetition operator: `*`"),
    (r"a{1001}", "invalid repeat count: `{1001}`"),
    (r"a{100000,}", "invalid repeat count: `{100000,}`"),
    (r"x{2,1}", "invalid repeat count: `{2,1}`"),
    (r"x{1,9876543210}", "invalid repeat count: `{1,9876543210}`"),
    (r"(?:[a-z]{4}){0,251}", "invalid repeat count: `{0,251}`"),
    (r"((((((((((x{2}){2}){2}){2}){2}){2}){2}){2}){2}){2})", "invalid repeat count: `{2}`"),
    # groups and classes
    (r"(", "missing closing ): `(`"),
    (r"(a|b", "missing closing ): `(a|b`"),
    (r")", "unexpected ): `)`"),
    (r"a|b)", "unexpected ): `a|b)`"),
    (r"[a", "missing closing ]: `[a`"),
    (r"[]", "missing closing ]: `[]`"),
    (r"[^]", "missing closing ]: `[^]`"),
    (r"x[[:alpha:]", "missing closing ]: `[[:alpha:]`"),
    (r"[z-a]", "invalid character class range: `z-a`"),
    (r"[[:foo:]]", "invalid character class range: `[:foo:]`"),
    (r"\p{Foo}", "invalid character class range: `\\p{Foo}`"),
    (r"\pX", "invalid character class range: `\\pX`"),
    (r"\p", "invalid character class range: `\\p`"),
    (r"\p{L", "invalid character class range: `\\p{L`"),
    (r"(?P<>a)", "invalid named capture: `(?P<>`"),
    (r"(?P<x y>a)", "invalid named capture: `(?P<x y>`"),
    (r"(?P<name", "invalid named capture: `(?P<name`"),
    # limits
    ("(" * 1000 + ")" * 1000, "expression nests too deeply: `" + "(" * 1000 + ")" * 1000 + "`"),
    ("(?:" * 1000 + ")*" * 1000, "expression nests too deeply: `" + "(?:" * 1000 + ")*" * 1000 + "`"),
    ("(xx?){1000}" * 1000, "expression too large: `" + "(xx?){1000}" * 1000 + "`"),
]


@pytest.mark.parametrize(("pattern", "message"), REJECTED)
def test_re2_rejects_with_gos_message(pattern: str, message: str) -> None:
    assert re2_problem(pattern) == message


@pytest.mark.parametrize(
    ("name", "accepted"),
    [  # Go 1.25+ canonicalName: case after the first letter and _ - space are ignored
        ("Greek", True),
        ("greek", True),
        ("GREEK", True),
        ("Old_Italic", True),
        ("old italic", True),
        ("Canadian_Aboriginal", True),
        ("Letter", True),
        ("Uppercase_Letter", True),
        ("upper case-let ter", True),
        ("LC", True),
        ("Assigned", True),
        ("ASCII", True),
        ("Kawi", True),  # Unicode 15
        ("Latn", False),  # script codes are not names Go knows
        ("IsGreek", False),
        ("Script=Greek", False),
        ("InBasicLatin", False),
    ],
)
def test_unicode_class_names(name: str, accepted: bool) -> None:
    assert (re2_problem("\\p{" + name + "}") is None) is accepted


# --- RE2 matching ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "text", "expected"),
    [
        ("K80", "Tesla K80", True),  # unanchored, like MatchString
        ("^K80", "Tesla K80", False),
        ("A100|H100", "NVIDIA H100 80GB HBM3", True),
        ("^a$", "a\n", False),  # $ is the end of the text only
        ("(?m)^a$", "b\na\n", True),
        (r"\d", "٣", False),  # \d is ASCII
        (r"\w+", "é", False),
        (r"\s", "\v", False),  # RE2's \s has no \v ...
        (r"[[:space:]]", "\v", True),  # ... but [[:space:]] has
        (r"\bK\b", "éKé", True),  # ASCII word boundaries
        (r"\B", "", True),
        (r"\B", "1É1", False),  # Go steps by character; C++ RE2 also looks inside É's bytes
        (r"\B", "ÉÉ", True),
        ("(?i)tesla", "TESLA K80", True),
        (r"(?i)\P{Lu}", "a", False),  # folded, then negated
        ("(?i)k", "\u212a", True),  # the Kelvin sign folds with k (Go's caseOrbit) ...
        ("(?i)S", "ſ", True),  # ... the long s with s ...
        ("(?i)ß", "ẞ", True),  # ... and the capital sharp s with ß,
        ("(?i)i", "İ", False),  # but İ and ı fold only to themselves (Python's (?i) says True)
        ("(?i)[a-z]", "ı", False),
        ("(?i)[^i]", "İ", True),
        (r"(?i)[\x{130}]", "i", False),
        (r"\P{Lu}", "a", True),
        (r"\p{Greek}+", "αβγ", True),
        (r"\pL", "1", False),
        (r"\Qa.b\E", "axb", False),
        (r"\Qa.b\E", "a.b", True),
        ("a{,2}", "a{,2}", True),
        ("a{,2}", "aa", False),
        (r"[^a]", "\n", True),
        (".", "\n", False),
        ("(?s).", "\n", True),
        ("(?U)a+", "aaa", True),
        (r"\x{263a}", "☺", True),
        (r"[\x{41}-\x7a]", "_", True),
        ("", "", True),
        ("(?=a)", "a", False),  # rejected by Go: never matches
    ],
)
def test_re2_search(pattern: str, text: str, expected: bool) -> None:
    assert re2_search(pattern, text) is expected


# --- go-version constraints --------------------------------------------------------------------


@pytest.mark.parametrize(
    "constraint",
    [
        ">= 1.2, < 2",
        "~> 1.0",
        "1.2.3",
        "= 1.2.3",
        "!= 1.2.3",
        "> 1",
        "<= v1.2",
        "1.2.3-beta",
        "1.2.3beta",  # loose: no dash needed
        "1.2.3-beta+build.5",
        "1.2.3.4.5",
        " \t>=\n1.2 ",
        ">=1.2,<2",
        "~>535.0",
    ],
)
def test_version_constraints_accepted(constraint: str) -> None:
    assert version_constraint_problem(constraint) is None


@pytest.mark.parametrize(
    ("constraint", "message"),
    [
        ("", "malformed constraint: "),
        ("foo", "malformed constraint: foo"),
        (">= 1.2,", "malformed constraint: "),
        (">= 1.x", "malformed constraint: >= 1.x"),
        ("=> 1.2", "malformed constraint: => 1.2"),
        ("== 1.2", "malformed constraint: == 1.2"),
        ("^1.2", "malformed constraint: ^1.2"),
        ("~1.2", "malformed constraint: ~1.2"),
        (">= 1.2 || < 1", "malformed constraint: >= 1.2 || < 1"),
        ("\v1.2", "malformed constraint: \v1.2"),  # RE2's \s has no \v
        (
            "99999999999999999999",
            'error parsing version: strconv.ParseInt: parsing "99999999999999999999": value out of range',
        ),
    ],
)
def test_version_constraints_rejected(constraint: str, message: str) -> None:
    assert version_constraint_problem(constraint) == message


@pytest.mark.parametrize(
    ("constraint", "message"),
    [
        (">= 1.2.3", None),
        ("1.2.3-beta.1", None),
        ("< 2", None),
        ("~> 1.2", "Malformed constraint: ~> 1.2"),
        ("1.2.3beta", "Malformed constraint: 1.2.3beta"),  # strict: the dash is required
        ("foo", "Malformed constraint: foo"),
    ],
)
def test_semver_constraints(constraint: str, message: str | None) -> None:
    assert semver_constraint_problem(constraint) == message


@pytest.mark.parametrize(
    ("constraint", "version", "expected"),
    [
        (">= 1.2, < 2", "1.5", True),
        (">= 1.2, < 2", "2.0", False),
        ("~> 1.2", "1.9.9", True),
        ("~> 1.2", "2.0", False),
        ("~> 1.2.3", "1.2.9", True),
        ("~> 1.2.3", "1.3.0", False),
        ("~> 1", "7.0", True),  # ~> with one segment is just >=
        (">= 1.0", "1.1.0-beta", False),  # a pre-release needs a pre-release constraint
        (">= 1.1.0-alpha", "1.1.0-beta", True),
        (">= 1.0.0-alpha", "1.1.0-beta", False),  # ... on the same segments
        ("> 1.2.3-alpha.9", "1.2.3-alpha.10", True),  # numeric parts compare as numbers
        ("> 1.2.3-alpha.beta", "1.2.3-alpha.1", False),  # numeric sorts before text
        ("= 1.2.3", "1.2.3+build", True),  # metadata is ignored
        ("= 1.2", "1.2.0", True),
        ("= 1.2.3", "1.2.3.0", True),
        ("= 1.2.3.0", "1.2.3-beta", True),  # go-version: unequal lengths skip the pre-release
        ("!= 1.2.3", "1.2.4", True),
        ("< 2", "v1.9", True),
        (">= 535.0", "535.104.05", True),
        (">= 1.0", "not a version", None),
        ("bad", "1.0", None),
    ],
)
def test_version_matches(constraint: str, version: str, expected: bool | None) -> None:
    assert version_matches(constraint, version) is expected


@pytest.mark.parametrize(
    ("constraint", "version", "expected"),
    [
        (">= 1.0.0", "1.1.0-beta", True),  # no pre-release filter in Nomad's semver
        ("< 1.1.0", "1.1.0-beta", True),  # SemVer: a pre-release sorts before its release
        (">= 1.2.3", "1.2.3beta", False),  # the version is read loosely: 1.2.3-beta
        ("= 1.2.3", "1.2.3", True),
        ("~> 1.2", "1.2.3", None),
    ],
)
def test_semver_matches(constraint: str, version: str, expected: bool | None) -> None:
    assert semver_matches(constraint, version) is expected
