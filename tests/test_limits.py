"""The documented limits: inputs that end in one located diagnostic, never in a recursion
error, a hang or a memory blow-up (nesting, size, long lines, bytes that are not UTF-8 text,
regular expressions built to be slow)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from hclgpu.cli import main
from hclgpu.inputs import MAX_BYTES
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile
from hclgpu.units.patterns import re2_search
from tests.conftest import ROOT


def _codes(text: str) -> list[str]:
    return [d.code for d in compile_source(SourceFile("limits.nomad.hcl", text)).diagnostics]


@pytest.mark.parametrize(
    "text",
    [
        'job "x" {\n  meta = ' + "[" * 100_000 + "]" * 100_000 + "\n}\n",
        'job "x" {\n  meta = ' + "(" * 100_000 + "1" + ")" * 100_000 + "\n}\n",
        'job "x" {\n' + "a {\n" * 100_000 + "}\n" * 100_000 + "}\n",
        'job "x" {\n  meta = ' + "{a = " * 100_000 + "1" + "}" * 100_000 + "\n}\n",
    ],
    ids=["brackets", "parentheses", "blocks", "objects"],
)
def test_100000_levels_of_nesting_are_one_located_error(text: str) -> None:
    diagnostics = compile_source(SourceFile("deep.nomad.hcl", text)).diagnostics
    assert [d.code for d in diagnostics] == ["HG012"]
    assert diagnostics[0].span is not None and "256 levels" in diagnostics[0].message


def test_a_50_mb_file_is_refused_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "big.nomad.hcl"
    with big.open("wb") as handle:
        handle.truncate(50 * 1024 * 1024)  # sparse: the size is what is checked
    assert main(["check", str(big)]) == 1
    assert "error[HG013]: the file is 50 MiB; hclgpu reads at most 16 MiB" in capsys.readouterr().err
    assert MAX_BYTES == 16 * 1024 * 1024  # the README's documented limit


def test_a_1_mb_single_line_is_read_in_bounded_memory() -> None:
    """One string of a million characters: linear lexing, no per-character backtracking frames."""
    text = 'job "x" {\n  meta { k = "' + "x" * 1_000_000 + '" }\n}\n'
    tracemalloc.start()
    try:
        assert _codes(text) == []
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 60 * 1024 * 1024, f"{peak / 2**20:.0f} MiB for a 1 MB line"


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b'job "x" {\n  type = "ba\xff\xfetch"\n}\n', "HG010"),
        (b'job "x" {\n  type = "ba\x00tch"\n}\n', "HG011"),
        (b"\xff\xfej\x00o\x00b\x00", "HG011"),  # UTF-16 with a byte-order mark
    ],
    ids=["invalid-utf8", "nul-byte", "utf16"],
)
def test_bytes_that_are_not_utf8_text_are_one_located_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, code: str
) -> None:
    path = tmp_path / "bytes.nomad.hcl"
    path.write_bytes(data)
    assert main(["check", str(path), "--format", "json"]) == 1
    out = capsys.readouterr().out
    assert f'"code": "{code}"' in out and "Traceback" not in out


def test_an_unterminated_string_is_reported_in_linear_time() -> None:
    """A nested quantifier in the lexer would backtrack exponentially here."""
    assert _codes('job "x" {\n  type = "' + "a" * 50_000 + "\n}\n")[:1] == ["HG002"]


PATHOLOGICAL = [
    ("(a+)+$", '"a" * 100_000 + "b"'),
    ("(a|aa)*c", '"a" * 100_000'),
    ("^(\\w+\\s?)*$", '"word " * 20_000 + "!"'),
    ("(x+x+)+y", '"x" * 50_000'),
]
"""(pattern, Python expression of the text): the texts are built in the child process."""


def test_slow_regexps_match_in_linear_time() -> None:
    """RE2 semantics: in a child process with a deadline, so a backtracking engine would fail
    the test instead of hanging it."""
    program = (
        "from hclgpu.units.patterns import re2_search\n"
        f"cases = {PATHOLOGICAL!r}\n"
        "print([re2_search(p, eval(t)) for p, t in cases])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[False, False, False, False]"


@pytest.mark.parametrize(
    ("pattern", "text", "found"),
    [("(a+)+$", "aaaa", True), ("(a|aa)*c", "aac", True), ("^(\\w+\\s?)*$", "two words", True),
     ("Tesla.*", "NVIDIA Tesla V100", True), ("^Tesla", "NVIDIA Tesla V100", False)],
)  # fmt: skip
def test_the_linear_matcher_still_finds_matches(pattern: str, text: str, found: bool) -> None:
    assert re2_search(pattern, text) is found


def test_a_slow_regexp_in_a_constraint_checks_quickly() -> None:
    """The same patterns in a job's device constraint: checked (and planned) without a hang."""
    text = """job "x" {
  group "g" {
    task "t" {
      driver = "docker"
      config {
        image = "x"
      }
      resources {
        device "nvidia/gpu" {
          constraint {
            attribute = "${device.model}"
            operator  = "regexp"
            value     = "(a+)+$"
          }
        }
      }
    }
  }
}
"""
    assert _codes(text) == []


# --------------------------------------------------------------------------- side files

SAMPLE = str(ROOT / "samples" / "tensorrt.nomad.hcl")
NODES = str(ROOT / "samples" / "nodes" / "v100.yaml")

SIDE_FILES = {
    "var-file": ["check", "--no-cache", SAMPLE, "--var-file", "FILE"],
    "plan-nodes": ["plan", SAMPLE, "--nodes", "FILE"],
    "render-nodes": ["render", SAMPLE, "--target", "oci", "--nodes", "FILE", "--node", "n"],
    "fingerprint": ["fingerprint", "--from", "FILE", "--name", "n"],
    "cdi-spec": ["render", SAMPLE, "--target", "oci", "--oci-devices", "cdi", "--cdi-spec", "FILE"],
    "import": ["import", "FILE", "--from", "compose"],
}
"""Every command that reads a file besides the job file, with FILE where it goes."""


def _hclgpu(argv: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """``hclgpu argv`` in a child process with a deadline and 2 GiB of address space, so an
    unbounded read fails the test instead of hanging it or exhausting the machine."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    return subprocess.run(
        [sys.executable, "-m", "hclgpu", *argv], input=stdin, capture_output=True, timeout=30,
        preexec_fn=limit, cwd=ROOT, stdin=None if stdin is not None else subprocess.DEVNULL,
    )  # fmt: skip


def _side_file(kind: str, tmp_path: Path) -> str:
    if kind == "fifo":
        path = tmp_path / "fifo"
        os.mkfifo(path)  # nobody writes to it: reading it would wait for ever
        return str(path)
    if kind == "17mib":
        path = tmp_path / "big.yaml"
        with path.open("wb") as handle:
            handle.truncate(17 * 1024 * 1024)
        return str(path)
    return "/dev/zero"


@pytest.mark.parametrize("kind", ["fifo", "17mib", "/dev/zero"])
@pytest.mark.parametrize("command", list(SIDE_FILES))
def test_side_files_that_never_end_or_are_too_large_are_refused_at_once(
    command: str, kind: str, tmp_path: Path
) -> None:
    file = _side_file(kind, tmp_path)
    done = _hclgpu([file if arg == "FILE" else arg for arg in SIDE_FILES[command]])
    err = done.stderr.decode()
    assert "Traceback" not in err and "HG901" not in err, err
    why = "16 MiB" if kind == "17mib" else "not a regular file"
    assert why in err, err
    # an unusable CDI spec is a warning at the device blocks; everything else stops the command
    assert done.returncode in ((0, 1) if command == "cdi-spec" else (1, 2)), err


def test_standard_input_to_import_is_read_up_to_16_mib() -> None:
    done = _hclgpu(["import", "-", "--from", "compose"], stdin=b"#" * (17 * 1024 * 1024))
    err = done.stderr.decode()
    assert done.returncode == 2 and "larger than 16 MiB" in err and "Traceback" not in err, err
    assert done.stdout == b""


def test_the_file_reader_refuses_devices_fifos_directories_and_large_files(tmp_path: Path) -> None:
    import io

    from hclgpu.files import MAX_BYTES, Unreadable, read_bytes, read_stream

    with pytest.raises(Unreadable, match="a FIFO") as fifo:
        read_bytes(_side_file("fifo", tmp_path))
    assert fifo.value.code == "HG020"
    with pytest.raises(Unreadable, match="a device"):
        read_bytes("/dev/zero")
    with pytest.raises(IsADirectoryError):
        read_bytes(tmp_path)
    with pytest.raises(Unreadable, match="the file is 17 MiB; hclgpu reads at most 16 MiB") as big:
        read_bytes(_side_file("17mib", tmp_path))
    assert big.value.code == "HG013"
    with pytest.raises(Unreadable, match="larger than 16 MiB"):
        read_stream(io.BytesIO(b"x" * (MAX_BYTES + 1)))
    assert read_stream(io.BytesIO(b"x" * MAX_BYTES)) == b"x" * MAX_BYTES


def test_text_that_is_not_utf8_is_located() -> None:
    from hclgpu.files import NotUtf8, decode_utf8

    with pytest.raises(NotUtf8, match="invalid UTF-8: byte 0xff at byte offset 5") as error:
        decode_utf8("é\nab".encode() + b"\xffc")
    assert (error.value.line, error.value.column, error.value.position) == (2, 3, 4)


@pytest.mark.parametrize("stdin", [False, True], ids=["file", "stdin"])
@pytest.mark.parametrize(
    ("source_format", "data", "where"),
    [
        ("compose", b"services:\n  web:\n    image: caf\xe9\n", "3:15"),
        ("kubernetes", b"kind: Pod\nmetadata: {name: caf\xe9}\n", "2:21"),
        ("nomad-json", b'{"ID": "caf\xe9"}', "1:12"),
    ],
    ids=["compose", "kubernetes", "nomad-json"],
)
def test_importing_bytes_that_are_not_utf8_is_a_located_error(
    source_format: str, data: bytes, where: str, stdin: bool, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    import io

    path = tmp_path / "in.yaml"
    path.write_bytes(data)
    if stdin:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    name = "-" if stdin else str(path)
    assert main(["import", name, "--from", source_format]) == 1
    out, err = capsys.readouterr()
    assert out == "" and f"{name}:{where}: error: HG010: invalid UTF-8: byte 0xe9 at byte offset" in err, err


def test_a_var_file_that_is_not_utf8_is_located_in_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    values = tmp_path / "values.hcl"
    values.write_bytes(b'image = "caf\xe9"\n')
    assert main(["check", "--format", "json", SAMPLE, "--var-file", str(values)]) == 1
    (found,) = json.loads(capsys.readouterr().out)["diagnostics"]
    assert (found["path"], found["code"], found["line"], found["column"]) == (str(values), "HG010", 1, 13)


# --------------------------------------------------------------------------- structured side files

BOMB = "".join(
    f"{name}: &{name} [{', '.join([f'*{previous}'] * 9)}]\n"
    for previous, name in zip("abcdefg", "bcdefgh", strict=True)
)
BOMB = 'a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]\n' + BOMB
"""Eight levels of nine aliases: a few hundred bytes that expand to 43 million strings."""
DIGITS = "9" * 5000
"""More digits than Python converts to an int (4300) by default."""

INVENTORIES = {
    "json-brackets": ("[" * 100_000 + "]" * 100_000, "1:257", "nested more than 256 levels deep"),
    "json-300-levels": ('{"nodes": ' + "[" * 300 + "]" * 300 + "}", "1:266", "nested more than 256 levels"),
    "yaml-flow-300": ("nodes: " + "[" * 300 + "]" * 300, "1:263", "nested more than 256 levels deep"),
    "yaml-block-300": ("".join(" " * i + "-\n" for i in range(300)), "257:257", "nested more than 256"),
    "yaml-block-3000": ("".join(" " * i + "-\n" for i in range(3000)), "1000:", "nesting depth"),
    "json-integer": ('{"version": 1, "nodes": [{"name": "n", "cpu": ' + DIGITS + "}]}", "1:47", "4300"),
    "yaml-integer": ("version: 1\nnodes:\n- name: n\n  cpu: " + DIGITS + "\n", "4:8", "4300 digits"),
    "yaml-bomb": (BOMB + "version: 1\nnodes:\n- name: n\n  attributes: {x: *h}\n", "6:", "YAML aliases"),
}  # fmt: skip


@pytest.mark.parametrize(("text", "where", "words"), INVENTORIES.values(), ids=INVENTORIES)
def test_inventories_beyond_the_limits_are_located_errors(
    text: str, where: str, words: str, tmp_path: Path
) -> None:
    from hclgpu.plan.inventory import InventoryError, load_inventory

    path = tmp_path / "nodes.yaml"
    path.write_text(text)
    with pytest.raises(InventoryError, match=re.escape(words)) as error:
        load_inventory(path)
    message = str(error.value)
    line, column = where.split(":")
    located = rf"{re.escape(str(path))}(:{line}:{column or '[0-9]+'}:|: .* line {line}, column)"
    assert re.match(located, message), message


IMPORTS = {
    "compose-integer": ("compose", "services:\n  web:\n    image: x\n    cpus: " + DIGITS + "\n", "4:11"),
    "compose-deep": ("compose", "services: " + "[" * 300 + "]" * 300 + "\n", "1:266"),
    "kubernetes-integer": ("kubernetes", "kind: Pod\nspec:\n  replicas: " + DIGITS + "\n", "3:13"),
    "kubernetes-deep-json": ("kubernetes", "[" * 100_000 + "]" * 100_000, "1:"),
    "kubernetes-bomb": ("kubernetes", BOMB + "kind: Pod\nspec:\n  containers: [{name: c, args: *h}]\n", "6:"),
    "nomad-json-integer": ("nomad-json", '{"Job": {"ID": "j", "Priority": ' + DIGITS + "}}", "1:33"),
    "nomad-json-deep": ("nomad-json", '{"Job": {"ID": "j", "Meta": ' + "[" * 300 + "]" * 300 + "}}", "1:283"),
}  # fmt: skip


@pytest.mark.parametrize(("source_format", "text", "where"), IMPORTS.values(), ids=IMPORTS)
def test_imports_beyond_the_limits_are_located_errors(
    source_format: str, text: str, where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.yaml"
    path.write_text(text)
    assert main(["import", str(path), "--from", source_format]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"{path}:{where}") and ": error: " in err, err
    assert "HG901" not in err and ("4300 digits" in err or "nest" in err or "YAML aliases" in err), err


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000 + "]" * 100_000, '{"cdiVersion": "0.6.0", "devices": [], "x": ' + DIGITS + "}", BOMB],
    ids=["deep", "integer", "bomb"],
)  # fmt: skip
def test_a_cdi_spec_beyond_the_limits_is_not_applied(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "nvidia.yaml"
    spec.write_text(text)
    argv = ["render", SAMPLE, "--target", "oci", "--oci-devices", "cdi", "--cdi-spec", str(spec)]
    assert main([*argv, "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert "HG301" in err and "its edits are not applied" in err and " at line " in err, err


@pytest.mark.parametrize("yaml_1_2", [False, True], ids=["yaml-1.1", "yaml-1.2"])
def test_yaml_documents_are_read_within_the_limits(yaml_1_2: bool) -> None:
    from hclgpu.documents import DocumentError, load_yaml

    assert load_yaml("a: &a [1, 2]\nb: [*a, *a]\n", yaml_1_2) == [{"a": [1, 2], "b": [[1, 2], [1, 2]]}]
    assert load_yaml("n: " + "9" * 4300, yaml_1_2) == [{"n": int("9" * 4300)}]
    for text, words, column in [
        ("a: &a [*a]", "a YAML alias refers to a value that contains it", 4),
        ("n: 0x" + "f" * 4000, "an integer of more than 4300 digits is out of range", 4),
        ("n: -" + "9" * 4301, "an integer of more than 4300 digits is out of range", 4),
        (BOMB + "x: *h\n", "YAML aliases expand this value", 4),
    ]:
        with pytest.raises(DocumentError, match=re.escape(words)) as error:
            load_yaml(text, yaml_1_2)
        assert error.value.column == column


def test_json_documents_are_read_within_the_limits() -> None:
    from hclgpu.documents import DocumentError, load_json

    assert load_json('{"n": -' + "9" * 4300 + "}") == {"n": -int("9" * 4300)}
    assert load_json('["[[[[", "' + "[" * 300 + '"]') == ["[[[[", "[" * 300]  # brackets in strings
    with pytest.raises(DocumentError, match="an integer of more than 4300") as error:
        load_json('{\n  "n": ' + DIGITS + "}")
    assert (error.value.line, error.value.column) == (2, 8)


def _affinity(key: str) -> str:
    expression = {"key": key, "operator": "Gt", "values": [DIGITS]}
    terms = {"nodeSelectorTerms": [{"matchExpressions": [expression]}]}
    return json.dumps({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": terms}})


GPU_CONTAINER = "{name: c, image: x, resources: {limits: {nvidia.com/gpu: 1}}}"
DIGIT_STRINGS = {
    "compose-restart": ("compose", f"services:\n  web:\n    image: x\n    restart: on-failure:{DIGITS}\n"),
    "compose-neuron": ("compose", f"services:\n  web:\n    image: x\n    devices: [/dev/neuron{DIGITS}]\n"),
    "compose-healthcheck": ("compose", "services:\n  web:\n    image: x\n    healthcheck:\n      test: "
                            f"['CMD-SHELL', 'nc -z localhost {DIGITS} || bash -c \"exec 3<>"
                            f"/dev/tcp/localhost/{DIGITS}\" || exit 1']\n"),
    "kubernetes-cpu": ("kubernetes", "kind: Pod\nspec:\n  containers: [{name: c, image: x, resources: "
                       f"{{limits: {{cpu: '{DIGITS}', memory: '1e{DIGITS}'}}}}}}]\n"),
    "kubernetes-memory-label": ("kubernetes", f"kind: Pod\nspec:\n  containers: [{GPU_CONTAINER}]\n"
                                f"  affinity: {_affinity('nvidia.com/gpu.memory')}\n"),
    "kubernetes-driver-label": ("kubernetes", f"kind: Pod\nspec:\n  containers: [{GPU_CONTAINER}]\n"
                                f"  affinity: {_affinity('nvidia.com/cuda.driver-version.major')}\n"),
    "kubernetes-max-unavailable": ("kubernetes", "kind: Deployment\nspec:\n  strategy: {rollingUpdate: "
                                   f"{{maxUnavailable: '{DIGITS}%'}}}}\n  template: {{spec: {{containers: "
                                   "[{name: c, image: x}]}}\n"),
}  # fmt: skip


@pytest.mark.parametrize(("source_format", "text"), DIGIT_STRINGS.values(), ids=DIGIT_STRINGS)
def test_importing_a_string_of_5000_digits_is_no_internal_error(
    source_format: str, text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Numbers read out of strings (a restart count, a device index, a label value) that
    Python cannot convert are no count, index or size: reported like any other such value."""
    path = tmp_path / "in.yaml"
    path.write_text(text)
    assert main(["import", str(path), "--from", source_format]) == 0
    err = capsys.readouterr().err
    assert "HG901" not in err and "warning: HG30" in err, err
