"""Fuzzing: generated and mutated job files through the whole tool.

Properties, for every input: no exception escapes (no HG9xx diagnostic), the input is
done within a bound of work (function calls counted, not seconds), formatting keeps the
tree, and when the job compiles, every artifact of every target parses and validates, with
the job's strings carried exactly.

`make test` runs a few dozen examples of each property (``HCLGPU_FUZZ_EXAMPLES``);
`make fuzz` runs them in rounds for as long as it is given (tests/fuzz.py).
"""

from __future__ import annotations

import json
import os
import shlex
from collections import Counter
from typing import Any

import re2  # type: ignore[import-untyped, unused-ignore]
import yaml
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from hclgpu.backends import registry
from hclgpu.backends.target import Artifact, Lowering
from hclgpu.codes import Severity
from hclgpu.diagnostics import Sink
from hclgpu.eval.program import EvalOptions
from hclgpu.eval.variables import VariableInputs
from hclgpu.io.inputs import Input, decode
from hclgpu.ir import models as m
from hclgpu.pipeline import Result, check_source, compile_source
from hclgpu.printer import format_tree, same_tree
from hclgpu.re2 import re2_problem, re2_search
from hclgpu.source import SourceFile
from hclgpu.syntax import ast
from tests import fuzz_inputs as inputs
from tests import test_robustness as robustness
from tests.conftest import ROOT
from tests.test_translation_literals import kubelet_expand
from tests.work import work_of

EXAMPLES = int(os.environ.get("HCLGPU_FUZZ_EXAMPLES", "30"))
WORK_PER_INPUT = 25_000_000
"""Function calls (Python and built-in) one input may take to compile, and again to render:
a file at the evaluation budget (a million loop iterations) makes about 18 million, and a
sample job 10,000 to 50,000 to compile. Counted, not timed, so that a loaded machine
cannot fail a test, and an input that runs past it is stopped there instead of hanging."""
EXAMPLES_RUN: Counter[str] = Counter()
"""Examples run per property (read by tests/fuzz.py for its report)."""

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
    # shrinking renders every target per step: minutes per failure; off for a first look
    phases=[p for p in Phase if p is not Phase.shrink or not os.environ.get("HCLGPU_FUZZ_NO_SHRINK")],
)
CORPUS = inputs.corpus()
RENDERINGS: list[tuple[str, dict[str, Any]]] = [
    ("nomad", {}),
    ("kubernetes", {"k8s_devices": "plugin"}),
    ("kubernetes", {"k8s_devices": "dra"}),
    ("oci", {"oci_devices": "hook"}),
    ("oci", {"oci_devices": "cdi"}),
    ("docker", {}),
    ("compose", {}),
]


def compile_bytes(name: str, data: bytes) -> Result | None:
    """Decode and compile as `hclgpu check` does, within :data:`WORK_PER_INPUT` calls; the
    result (None when the bytes were not text)."""

    def run() -> tuple[Result | None, Sink]:
        sink = Sink()
        source = decode(Input(name, data), sink)
        if source is None:
            return None, sink
        options = EvalOptions(VariableInputs(env={}), base_dir=ROOT / "samples")
        return compile_source(source, options), sink

    (result, sink), _ = work_of(run, WORK_PER_INPUT)
    if result is None:
        assert all(d.code.startswith("HG0") for d in sink.sorted())
    return result


def assert_no_internal_error(result: Result | None) -> None:
    if result is None:
        return
    internal = [f"{d.code} {d.message}" for d in result.diagnostics if d.code.startswith("HG9")]
    assert internal == []
    assert (result.job is None) == any(d.severity is Severity.ERROR for d in result.diagnostics)


def render_everything(result: Result) -> dict[str, list[Artifact]]:
    """Every target's artifacts (timed by the caller), each parsed and validated."""
    assert result.job is not None
    rendered: dict[str, list[Artifact]] = {}
    for target, options in RENDERINGS:
        ctx = Lowering(target, result.source, Sink(), registry.render_options(target, **options))
        artifacts = registry.render(result.job, target, ctx)
        assert not any(d.code.startswith("HG9") for d in ctx.sink.sorted())
        rendered[f"{target}:{options}"] = artifacts
    return rendered


def validate(rendered: dict[str, list[Artifact]]) -> dict[str, list[dict[str, str]]]:
    """Validate every artifact; returns the environment of each container, by target."""
    from tests.test_docker_compose import validate_compose
    from tests.test_k8s_render import validate as validate_kubernetes
    from tests.test_oci import validate as validate_oci

    environments: dict[str, list[dict[str, str]]] = {}
    for key, artifacts in rendered.items():
        target = key.split(":")[0]
        found: list[dict[str, str]] = []
        for artifact in artifacts:
            if target == "nomad":
                job = json.loads(artifact.text)["Job"]
                found += [t["Env"] or {} for g in job["TaskGroups"] or [] for t in g["Tasks"] or []]
            elif target == "kubernetes":
                validate_kubernetes(artifact.text)
                found += _kubernetes_env(artifact.text)
            elif target == "oci":
                config = json.loads(artifact.text)
                validate_oci(config)
                found.append(dict(e.split("=", 1) for e in config["process"]["env"]))
            elif target == "docker":
                found.append(_docker_env(shlex.split(artifact.text)))
            else:
                doc = yaml.safe_load(artifact.text)
                validate_compose(doc)
                found += [
                    {k: v.replace("$$", "$") for k, v in service.get("environment", {}).items()}
                    for service in doc["services"].values()
                ]
        environments[key] = found
    return environments


def _kubernetes_env(text: str) -> list[dict[str, str]]:
    found = []
    for doc in yaml.safe_load_all(text):
        spec = (doc or {}).get("spec", {})
        spec = spec.get("jobTemplate", {}).get("spec", spec)
        pod = spec.get("template", {}).get("spec", {}) if isinstance(spec, dict) else {}
        for container in pod.get("containers", []):
            # what the process sees once the kubelet has expanded $(VAR) and reduced $$
            found.append(
                {e["name"]: kubelet_expand(e.get("value", ""), {}) for e in container.get("env", [])}
            )
    return found


def _docker_env(argv: list[str]) -> dict[str, str]:
    values = [argv[i + 1] for i, word in enumerate(argv[:-1]) if word in ("-e", "--env")]
    return dict(value.split("=", 1) for value in values)


def parsed_skeleton(node: ast.Block | ast.Attribute) -> object:
    if isinstance(node, ast.Attribute):
        return ("=", node.name)
    labels = tuple(label.value for label in node.labels)
    return (node.type, labels, tuple(parsed_skeleton(item) for item in node.body.items))


# ---- properties ------------------------------------------------------------------------


@FUZZ
@given(inputs.jobs())
def test_generated_jobs(generated: tuple[inputs.Block, inputs.Layout, str, dict[str, str]]) -> None:
    tree, _, text, meta = generated
    EXAMPLES_RUN["generated jobs"] += 1
    checked = check_source(SourceFile("gen.nomad.hcl", text))
    assert checked.tree is not None and checked.ok, [d.message for d in checked.diagnostics]
    [job] = checked.tree.body.items
    assert isinstance(job, ast.Block)
    assert parsed_skeleton(job) == inputs.skeleton(tree)

    printed = format_tree(checked.tree, text)
    again = check_source(SourceFile("gen.nomad.hcl", printed))
    assert again.tree is not None and again.ok
    assert same_tree(checked.tree, again.tree)
    assert format_tree(again.tree, printed) == printed

    result = compile_bytes("gen.nomad.hcl", text.encode())
    assert_no_internal_error(result)
    assert result is not None
    if result.job is None:
        return
    EXAMPLES_RUN["generated jobs rendered to every target"] += 1
    rendered, _ = work_of(lambda: render_everything(result), WORK_PER_INPUT)
    environments = validate(rendered)
    assert (result.job.meta or {}) == meta
    generated = inputs.environments(tree)
    for group in result.job.task_groups or []:
        for task in group.tasks or []:
            # the file's strings evaluate to exactly what was generated
            assert (task.env or {}) == generated[(group.name or "", task.name or "")]
            _assert_carried(task, environments)


def _assert_carried(task: m.Task, environments: dict[str, list[dict[str, str]]]) -> None:
    """The task's environment reaches every target unchanged (a container target only takes
    container tasks). `${...}` is left out: Nomad interpolates it at run time, and so do they."""
    expected = {k: v for k, v in (task.env or {}).items() if "${" not in v}
    for key, found in environments.items():
        if not key.startswith("nomad") and task.driver not in ("docker", "podman"):
            continue
        assert any(expected.items() <= env.items() for env in found), (key, expected)


@FUZZ
@given(inputs.mutated(CORPUS))
def test_mutated_job_files(mutation: tuple[str, bytes, list[str]]) -> None:
    name, data, _ = mutation
    EXAMPLES_RUN["mutated job files"] += 1
    result = compile_bytes(name, data)
    assert_no_internal_error(result)
    if result is None or result.job is None:
        return
    EXAMPLES_RUN["mutated job files rendered to every target"] += 1
    rendered, _ = work_of(lambda: render_everything(result), WORK_PER_INPUT)
    validate(rendered)


@FUZZ
@given(st.binary(max_size=600))
def test_random_bytes(data: bytes) -> None:
    EXAMPLES_RUN["random bytes"] += 1
    result = compile_bytes("random.hcl", data)
    assert_no_internal_error(result)


@FUZZ
@given(robustness.EXPRESSIONS, robustness.FIELDS)
def test_generated_expressions(expression: str, field: str) -> None:
    """Expressions built from operators, calls, for-expressions and references, evaluated
    in a job's fields: diagnostics or a job, never an exception, always within the bound of work."""
    EXAMPLES_RUN["generated expressions"] += 1
    close = " }" if "{" in field else ""
    task = f'    task "t" {{\n      {field} = {expression}{close}\n    }}\n'
    declarations = 'variable "x" { default = "v" }\nlocals { l = [1, 2] }\n'
    text = f'{declarations}job "j" {{\n  group "g" {{\n{task}  }}\n}}\n'
    result = compile_bytes("expression.nomad.hcl", text.encode())
    assert_no_internal_error(result)


def _pattern_tree() -> Any:
    """A job directory with a few files and folders, beside a folder it must never see."""
    import tempfile
    from pathlib import Path

    root = Path(tempfile.mkdtemp(prefix="hclgpu-fuzz-fileset-"))
    for name in ("job/a.txt", "job/b.hcl", "job/conf/c.txt", "job/conf/deep/d.tpl", "outside/secret-outside"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(name)
    (root / "job" / "escape").symlink_to(root / "outside")
    return root / "job"


PATTERN_TREE = _pattern_tree()
PATTERN_PIECES = ["{", "}", ",", "*", "**", "?", "[a-c]", "[!a]", "..", "/", ".", "a", "b", "conf", "deep"]
PATTERN_PIECES += ["escape", "\\", "{a,b}", "*.txt", "x"]


@FUZZ
@given(st.lists(st.sampled_from(PATTERN_PIECES), max_size=40).map("".join))
@example("{a,b}" * 30)
@example("../../../../**/*")
@example("escape/**")
def test_fileset_patterns(pattern: str) -> None:
    """Any pattern: a list of files inside the job's directory, or a located error, within
    the bound of work (the budget counts a brace bomb before it is expanded)."""
    EXAMPLES_RUN["fileset patterns"] += 1
    quoted = json.dumps(pattern).replace("${", "$${").replace("%{", "%%{")
    text = f'locals {{ files = fileset(".", {quoted}) }}\njob "j" {{}}\n'

    def run() -> Result:
        options = EvalOptions(VariableInputs(env={}), base_dir=PATTERN_TREE)
        return compile_source(SourceFile("fileset.nomad.hcl", text), options)

    result, _ = work_of(run, WORK_PER_INPUT)
    assert not [d for d in result.diagnostics if d.code.startswith("HG9") or d.span is None]
    files = (result.scope or {}).get("local", {}).get("files")
    if isinstance(files, list):
        assert all(not f.startswith("..") and "secret-outside" not in f for f in files), files
        assert all((PATTERN_TREE / f).is_file() for f in files), files


RE2_OPTIONS = re2.Options()
RE2_OPTIONS.log_errors = False


@FUZZ
@given(inputs.regexps(), st.lists(inputs.regexp_texts(), min_size=1, max_size=4))
@example("(a|a)*b", ["a" * 12])  # a backtracking engine, or a VM that keeps duplicate threads,
@example("(a*)*b", ["a" * 30])  # takes exponential work on these
@example("(x+x+)+y", ["x" * 30])
def test_regexps_match_like_re2(pattern: str, texts: list[str]) -> None:
    """A `regexp` constraint matches exactly where RE2 itself (google-re2, the C++ library
    Go's regexp follows) finds a match, and in linear time: every text is also tried
    repeated a thousand times, where twice the text takes twice the work. Where RE2 and Go
    differ (`\\B` inside a character) Go's answer is the one kept."""
    EXAMPLES_RUN["regexps"] += 1
    assert re2_problem(pattern) is None, pattern
    compiled = re2.compile(pattern, RE2_OPTIONS)
    for text in texts:
        ours, _ = work_of(lambda text=text: re2_search(pattern, text), WORK_PER_INPUT)
        assert ours is re2_finds(compiled, pattern, text), (pattern, text)
    long_text = "".join(texts) * 1000
    found, whole = work_of(lambda: re2_search(pattern, long_text), WORK_PER_INPUT)
    _, half = work_of(lambda: re2_search(pattern, long_text[: len(long_text) // 2]), WORK_PER_INPUT)
    assert whole <= 2.2 * half + 100, (pattern, half, whole)  # twice the text, twice the work
    if not _inside_characters(pattern, long_text):
        assert found is (compiled.search(long_text) is not None), pattern


def _inside_characters(pattern: str, text: str) -> bool:
    """Whether google-re2 may look between the bytes of one character.

    Its engines are byte-oriented (google/re2#314), so `\\B` also holds between two bytes of
    one character, which are both "not word"; Go's regexp, which Nomad runs, steps by
    character and never looks there. `\\b` never holds inside a character, nor do `^`, `$`."""
    return "\\B" in pattern and not text.isascii()


def re2_finds(compiled: re2._Regexp, pattern: str, text: str) -> bool:
    """Whether google-re2 finds a match the way Go's regexp would: where it might look
    inside a character, only a match that starts at a character counts (every atom then
    consumes whole characters, so its assertions too fall between characters)."""
    if not _inside_characters(pattern, text):
        return compiled.search(text) is not None
    return any(compiled.match(text, start) is not None for start in range(len(text) + 1))
