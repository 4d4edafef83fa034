"""The package's layers and its import graph (see docs/ARCHITECTURE.md).

A module imports only from its own layer or lower ones, every module is named here (a new
module must be given its layer; a removed one must leave), and no import cycle exists,
counting every import: at the top of a module, inside a function, under TYPE_CHECKING.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "hclgpu"

LAYERS = {
    0: """
        hclgpu.assets hclgpu.cli.clean_index hclgpu.digests hclgpu.gc_pause hclgpu.io hclgpu.io.durable
        hclgpu.io.files hclgpu.io.output hclgpu.io.records hclgpu.io.walk hclgpu.numbers hclgpu.source
        hclgpu.codes.base hclgpu.codes.index hclgpu.codes.syntax
    """,
    1: """
        hclgpu.codes hclgpu.codes.evaluation
        hclgpu.codes.policies hclgpu.codes.suppression hclgpu.codes.targets
        hclgpu.diagnostics hclgpu.io.inputs hclgpu.re2 hclgpu.re2.parser hclgpu.re2.translator
        hclgpu.re2.vm hclgpu.settings hclgpu.settings.files hclgpu.settings.kinds hclgpu.settings.option
        hclgpu.settings.patterns hclgpu.settings.profile hclgpu.settings.releases hclgpu.settings.resolve
        hclgpu.settings.selectors hclgpu.units hclgpu.units.attribute hclgpu.units.strconv hclgpu.units.table
        hclgpu.units.versions hclgpu.units.durations hclgpu.units.quantities hclgpu.units.mig
        hclgpu.units.gpu_names
    """,
    2: """
        hclgpu.io.documents hclgpu.syntax hclgpu.syntax.ast hclgpu.syntax.build
        hclgpu.syntax.comments hclgpu.syntax.dump hclgpu.syntax.errors hclgpu.syntax.layout
        hclgpu.syntax.lexer hclgpu.syntax.parser hclgpu.syntax.redefined hclgpu.syntax.tables
    """,
    3: """
        hclgpu.eval hclgpu.eval.budget hclgpu.eval.declarations hclgpu.eval.dynamic hclgpu.eval.expr
        hclgpu.eval.functions hclgpu.eval.functions.base hclgpu.eval.functions.bigfloat
        hclgpu.eval.functions.collection hclgpu.eval.functions.crypto hclgpu.eval.functions.dates
        hclgpu.eval.functions.encoding hclgpu.eval.functions.format hclgpu.eval.functions.fs
        hclgpu.eval.functions.net hclgpu.eval.functions.numeric hclgpu.eval.functions.text
        hclgpu.eval.functions.unicode hclgpu.eval.functions.yaml_codec hclgpu.eval.program
        hclgpu.eval.references hclgpu.eval.types hclgpu.eval.values hclgpu.eval.variables hclgpu.ir
        hclgpu.ir.base hclgpu.ir.build hclgpu.ir.canonical hclgpu.ir.custom hclgpu.ir.decode hclgpu.ir.moves
        hclgpu.ir.json_syntax hclgpu.ir.models hclgpu.ir.normalize hclgpu.ir.schema hclgpu.ir.admission
        hclgpu.ir.service_names hclgpu.ir.validate
    """,
    4: """
        hclgpu.checks hclgpu.checks.affinities hclgpu.checks.context hclgpu.checks.registry
        hclgpu.checks.deprecations hclgpu.checks.docker
        hclgpu.checks.devices hclgpu.checks.groups hclgpu.checks.jobs hclgpu.checks.naming
        hclgpu.checks.networks hclgpu.checks.operators hclgpu.checks.resources
        hclgpu.checks.satisfiable hclgpu.checks.server hclgpu.checks.services
        hclgpu.checks.suppress hclgpu.checks.targets hclgpu.checks.tasks hclgpu.checks.values
        hclgpu.checks.connect hclgpu.checks.hooks hclgpu.checks.secrets hclgpu.checks.service_checks
        hclgpu.checks.volumes hclgpu.checks.warnings hclgpu.checks.policies hclgpu.checks.strategies
        hclgpu.checks.task_blocks hclgpu.checks.task_files hclgpu.checks.gateways
        hclgpu.checks.connect_admission hclgpu.checks.findings
        hclgpu.plan hclgpu.plan.devices hclgpu.plan.fleet
        hclgpu.plan.fingerprint hclgpu.plan.host hclgpu.plan.inventory hclgpu.plan.model hclgpu.plan.nodecheck
        hclgpu.plan.planner hclgpu.plan.report hclgpu.plan.allocs hclgpu.plan.demand hclgpu.plan.live
        hclgpu.plan.offers hclgpu.plan.scores hclgpu.plan.spreads hclgpu.plan.numa
    """,
    5: """
        hclgpu.backends hclgpu.backends.compose hclgpu.backends.compose.project
        hclgpu.backends.compose.service hclgpu.backends.containers hclgpu.backends.docker
        hclgpu.backends.docker.argv hclgpu.backends.docker.checks hclgpu.backends.docker.container
        hclgpu.backends.docker.job hclgpu.backends.docker.lowering hclgpu.backends.docker.options
        hclgpu.backends.docker.resources hclgpu.backends.docker.shell hclgpu.backends.kubernetes
        hclgpu.backends.kubernetes.configmaps hclgpu.backends.kubernetes.containers
        hclgpu.backends.kubernetes.devices hclgpu.backends.kubernetes.devices_conditions
        hclgpu.backends.kubernetes.devices_dra hclgpu.backends.kubernetes.devices_model
        hclgpu.backends.kubernetes.devices_plugin hclgpu.backends.kubernetes.names
        hclgpu.backends.kubernetes.objects hclgpu.backends.kubernetes.options
        hclgpu.backends.kubernetes.placement hclgpu.backends.kubernetes.pod
        hclgpu.backends.kubernetes.probes hclgpu.backends.kubernetes.reporting
        hclgpu.backends.kubernetes.tasks hclgpu.backends.kubernetes.workloads hclgpu.backends.nomad
        hclgpu.backends.nomad.api hclgpu.backends.oci hclgpu.backends.oci.bundle
        hclgpu.backends.oci.cdi hclgpu.backends.oci.devices hclgpu.backends.oci.linux
        hclgpu.backends.oci.options hclgpu.backends.oci.process hclgpu.backends.oci.reporting
        hclgpu.backends.oci.requirements hclgpu.backends.oci.scope hclgpu.backends.registry
        hclgpu.backends.reporting hclgpu.backends.target hclgpu.backends.templating hclgpu.backends.yaml_block
        hclgpu.backends.task_env hclgpu.backends.kubernetes.task_env hclgpu.backends.kubernetes.host
        hclgpu.backends.kubernetes.cron
        hclgpu.importers
        hclgpu.importers.common hclgpu.importers.compose hclgpu.importers.compose.deploy
        hclgpu.importers.compose.devices hclgpu.importers.compose.document
        hclgpu.importers.compose.draft hclgpu.importers.compose.findings
        hclgpu.importers.compose.grouping hclgpu.importers.compose.health
        hclgpu.importers.compose.job hclgpu.importers.compose.options
        hclgpu.importers.compose.service hclgpu.importers.compose.values hclgpu.importers.hcl_writer
        hclgpu.importers.kubernetes hclgpu.importers.kubernetes.cel
        hclgpu.importers.kubernetes.containers hclgpu.importers.kubernetes.context
        hclgpu.importers.kubernetes.devices hclgpu.importers.kubernetes.mounts
        hclgpu.importers.kubernetes.placement hclgpu.importers.kubernetes.probes
        hclgpu.importers.kubernetes.resources
        hclgpu.importers.kubernetes.services hclgpu.importers.kubernetes.source
        hclgpu.importers.kubernetes.workload hclgpu.importers.nomad_json hclgpu.printer
        hclgpu.printer.fmt hclgpu.printer.hcl
        hclgpu.rego hclgpu.rego.engine hclgpu.rego.findings hclgpu.rego.locate hclgpu.rego.policies
        hclgpu.rego.worker
    """,
    6: """
        hclgpu.report hclgpu.report.github hclgpu.report.json hclgpu.report.location
        hclgpu.report.sarif hclgpu.report.statistics hclgpu.report.text hclgpu.report.migration
    """,
    7: """
        hclgpu.pipeline
    """,
    8: """
        hclgpu hclgpu.__main__ hclgpu.cli hclgpu.cli.batch hclgpu.cli.cache hclgpu.cli.check hclgpu.cli.fixes
        hclgpu.cli.completion
        hclgpu.cli.common hclgpu.cli.dump hclgpu.cli.explain hclgpu.cli.fingerprint hclgpu.cli.fmt
        hclgpu.cli.import_ hclgpu.cli.lsp hclgpu.cli.options hclgpu.cli.parser hclgpu.cli.plan
        hclgpu.cli.policy
        hclgpu.cli.render
        hclgpu.cli.rules hclgpu.cli.schema hclgpu.lsp hclgpu.lsp.actions hclgpu.lsp.analysis
        hclgpu.lsp.configuration
        hclgpu.lsp.candidates hclgpu.lsp.completion hclgpu.lsp.convert hclgpu.lsp.docs hclgpu.lsp.documents
        hclgpu.lsp.features hclgpu.lsp.hover hclgpu.lsp.navigation hclgpu.lsp.positions
        hclgpu.lsp.server hclgpu.lsp.syntax hclgpu.lsp.framing hclgpu.lsp.protocol hclgpu.lsp.semantic
    """,
}
"""Each layer's modules, lowest first: L0 files and text, L1 diagnostics, codes and units,
L2 syntax, L3 evaluation and the IR, L4 checks and planning, L5 back ends, importers and the
printer, L6 reports, L7 the pipeline, L8 the command line, the language server and the API."""

ALLOWED = {("hclgpu.report.sarif", "hclgpu")}
"""Imports that go up a layer: the SARIF report names the tool's version (``hclgpu.__version__``)."""


def layer_table() -> dict[str, int]:
    """Module → layer, from :data:`LAYERS` (a module named twice is an error)."""
    table: dict[str, int] = {}
    for layer, names in LAYERS.items():
        for name in names.split():
            assert name not in table, f"{name} is in layers {table[name]} and {layer}"
            table[name] = layer
    return table


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The hclgpu modules ``name`` (at ``path``) imports anywhere in its text: ``from a
    import b`` is module ``a.b`` when that is a module, else ``a``."""
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in known else base)
    return {module for module in found if module in known and module != name}


def import_graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imported(name, path, set(found)) for name, path in found.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), and the modules
    that import themselves: every import cycle, each as its sorted modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = [stack.pop()]
            while component[-1] != node:
                component.append(stack.pop())
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_every_module_has_a_layer_and_every_layer_entry_is_a_module() -> None:
    named, present = set(layer_table()), set(modules())
    assert sorted(present - named) == [], "give these modules a layer in tests/test_layers.py"
    assert sorted(named - present) == [], "these modules are gone: remove them from tests/test_layers.py"


def test_every_module_respects_the_layers() -> None:
    table = layer_table()
    violations = [
        f"{name} (L{table[name]}) imports {other} (L{table[other]})"
        for name, others in import_graph().items()
        for other in sorted(others)
        if table[other] > table[name] and (name, other) not in ALLOWED
    ]
    assert violations == []


def test_no_import_cycle_exists() -> None:
    graph = import_graph()
    found = cycles(graph)
    shown = [
        " ".join(component) + ":\n" + "\n".join(
            f"    {a} -> {b}" for a in component for b in sorted(graph[a]) if b in component
        )
        for component in found
    ]  # fmt: skip
    assert found == [], "import cycles:\n" + "\n".join(shown)


def test_the_cycle_finder_finds_every_cycle_and_only_cycles() -> None:
    graph = {
        "a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(),  # a -> b -> c -> a
        "e": {"f"}, "f": {"e"},  # e <-> f
        "g": {"g"},  # g imports itself
        "h": {"a", "d"},  # imports into a cycle: not in one
    }  # fmt: skip
    assert cycles(graph) == [["a", "b", "c"], ["e", "f"], ["g"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_imports_are_found_wherever_they_are(tmp_path: Path) -> None:
    package = tmp_path / "hclgpu"
    (package / "sub").mkdir(parents=True)
    (package / "sub" / "__init__.py").write_text("from . import low\n")
    (package / "sub" / "low.py").write_text("import hclgpu.top\n")
    (package / "top.py").write_text(
        "TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from hclgpu.sub import low\n"
        "def later():\n    from hclgpu import sub\n"
    )
    known = {"hclgpu.sub", "hclgpu.sub.low", "hclgpu.top"}
    assert imported("hclgpu.sub", package / "sub" / "__init__.py", known) == {"hclgpu.sub.low"}
    assert imported("hclgpu.sub.low", package / "sub" / "low.py", known) == {"hclgpu.top"}
    assert imported("hclgpu.top", package / "top.py", known) == {"hclgpu.sub.low", "hclgpu.sub"}
