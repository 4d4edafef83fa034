"""The settings: every option hclgpu reads, defined once, and their values for one file.

A file's settings come from the command line (or the editor, or keywords of the Python
API), then the nearest configuration file above the file (:mod:`hclgpu.settings.files`),
then the defaults below. Each option is an attribute of :class:`Settings`, declared here
with its kind, default and help; :mod:`hclgpu.cli.options` makes the command-line flags of
each command from these declarations, :mod:`hclgpu.settings.files` the configuration keys,
the language server its settings, and the README's table is checked against them.

This package imports only the standard library and the code registry: ``hclgpu check``
reads it before anything else, also when every file is unchanged and nothing is compiled.
"""

from __future__ import annotations

import os

from hclgpu.settings import kinds as k
from hclgpu.settings.option import SECTIONS, Option
from hclgpu.settings.profile import TARGETS, Profile
from hclgpu.settings.releases import NEWEST, Release

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.settings.patterns import Pattern

CHECKING = ("check", "render", "plan", "dump", "lsp")
"""The commands that check a job (and so read the cluster's facts)."""
_SELECTORS = k.Many(k.Selector(), "CODES", "list of codes or check names", comma=True)
_IGNORABLE = k.Many(k.Ignorable(), "CODES", "list of codes or check names", comma=True)
_PATTERNS = k.Many(k.Glob(), "PATTERNS", "list of patterns", comma=True)


class Settings:
    """The settings that apply to one file (or run), each option an attribute."""

    # ---- the cluster (the profile)
    nomad_version: Option[Release] = Option(
        k.NomadRelease(), NEWEST,
        "the Nomad release of the cluster's servers, `X.Y` or `X.Y.Z` from 1.8.0 to 2.0.6 (`X.Y` is its"
        " newest patch): every server check is made as that release makes it",
        section="cluster", commands=CHECKING,
    )  # fmt: skip
    enterprise: Option[bool | None] = Option(
        k.Bool(), None,
        "Nomad Enterprise (true) or Community Edition (false): with false, what only Enterprise"
        " accepts is an error (HG289); `plan` places `numa` blocks only with true",
        section="cluster", commands=CHECKING,
    )  # fmt: skip
    memory_oversubscription: Option[bool | None] = Option(
        k.Bool(), None,
        "whether the scheduler configuration enables memory oversubscription: with false, a"
        " `memory_max` is reported as ignored (HG264 `memory-oversubscription-disabled`)",
        section="cluster", commands=CHECKING,
    )  # fmt: skip
    job_max_count: Option[int] = Option(
        k.PositiveInt(), 50_000,
        "the servers' `job_max_count`: the most allocations a job's groups may ask for in all",
        section="cluster", commands=CHECKING,
    )  # fmt: skip
    job_max_source_size: Option[int] = Option(
        k.ByteSize(), 1_000_000,
        "the servers' `job_max_source_size` in bytes (or as \"1M\"): a larger job file is registered"
        " without its source (HG264 `job-source-too-large`)",
        section="cluster", commands=CHECKING,
    )  # fmt: skip
    scheduler_algorithm: Option[str | None] = Option(
        k.Choice("binpack", "spread"), None,
        "the scheduler configuration's algorithm, for `plan` (not set: the inventory's, else binpack)",
        section="cluster", commands=("plan",), lsp=False,
    )  # fmt: skip
    nodes: Option[str | None] = Option(
        k.Path("INVENTORY", literal=("nomad",)), None,
        "the fleet's node inventory: an hclgpu, Nomad or kubectl node file, or `nomad` to read the"
        " cluster at NOMAD_ADDR (for `plan`, `render --node`, and `check`, which reads a file to"
        " report device counts no node can hold, HG209)",
        section="cluster", commands=("check", "plan", "render"), lsp=False,
    )  # fmt: skip
    targets: Option[tuple[str, ...]] = Option(
        k.Many(k.Choice(*TARGETS), "TARGET", "list of " + ", ".join(f'"{t}"' for t in TARGETS)), (),
        "the targets the team translates its jobs to: findings about one target (HG267, names"
        " Kubernetes refuses) are reported only when it is named here or by `render --target`",
        section="cluster", commands=("check", "lsp"), flags=("--target",),
    )  # fmt: skip

    # ---- translation targets
    k8s_devices: Option[str] = Option(
        k.Choice("plugin", "dra"), "plugin",
        "kubernetes: device-plugin resources with node affinity, or DRA resource claims",
        section="targets", commands=("render",), lsp=False,
    )  # fmt: skip
    mig_strategy: Option[str] = Option(
        k.Choice("mixed", "single"), "mixed",
        "kubernetes: the NVIDIA device plugin's MIG strategy, for MIG models with --k8s-devices"
        " plugin: `nvidia.com/mig-<profile>` resources, or `nvidia.com/gpu` on nodes labelled with"
        " the MIG product",
        section="targets", commands=("render",), lsp=False,
    )  # fmt: skip
    node_labels: Option[str] = Option(
        k.Choice("gfd", "gke", "karpenter"), "gfd",
        "kubernetes: the node label a GPU model constraint tests with --k8s-devices plugin: GPU"
        " Feature Discovery's `nvidia.com/gpu.product`, GKE's `cloud.google.com/gke-accelerator` or"
        " Karpenter's `karpenter.k8s.aws/instance-gpu-name` (memory, driver and MIG models still"
        " use GFD's labels)",
        section="targets", commands=("render",), lsp=False,
    )  # fmt: skip
    namespace: Option[str | None] = Option(
        k.Text("NS", k.dns_label_problem), None,
        "kubernetes: the namespace of every object (a DNS label)",
        section="targets", commands=("render",), lsp=False,
    )  # fmt: skip
    cpu_mhz_per_core: Option[int] = Option(
        k.PositiveInt(), 1000,
        "how many MHz of Nomad's `cpu` make one core (kubernetes, oci, docker, compose; `plan` of"
        " Kubernetes nodes; `import`)",
        section="targets", commands=("render", "plan", "import"), lsp=False,
    )  # fmt: skip
    oci_devices: Option[str] = Option(
        k.Choice("hook", "cdi", "env"), "hook",
        "oci: GPUs through the NVIDIA prestart hook, CDI device names, or environment only",
        section="targets", commands=("render",), lsp=False,
    )  # fmt: skip
    cdi_spec: Option[str | None] = Option(
        k.Path("FILE"), None, "oci: apply this CDI spec's edits to config.json",
        section="targets", commands=("render",), lsp=False,
    )  # fmt: skip
    rootfs: Option[str | None] = Option(
        k.Text("PATH"), None, "oci: the root filesystem each bundle uses",
        section="targets", commands=("render",), lsp=False,
    )  # fmt: skip
    templates: Option[str | None] = Option(
        k.Path("DIR"), None, "use DIR/<target>/*.j2 before the built-in templates",
        section="targets", commands=("render",), lsp=False,
    )  # fmt: skip
    unsupported: Option[str] = Option(
        k.Choice("ignore", "warn", "error"), "warn",
        "what to do with constructs the target cannot express (HG301)",
        section="targets", commands=("render",), lsp=False,
    )  # fmt: skip

    # ---- which findings
    select: Option[tuple[str, ...]] = Option(
        _SELECTORS, (),
        "report only these codes, code prefixes or checks (`HG2`, `HG264`, `server-warning`,"
        " `memory-oversubscription-disabled`); empty: all (given on the command line, it replaces"
        " the configuration's `extend-select` too)",
        section="findings", commands=("check", "lsp"), resets=("extend_select",),
    )  # fmt: skip
    extend_select: Option[tuple[str, ...]] = Option(
        _SELECTORS, (), "add these to `select`",
        section="findings", commands=("check", "lsp"), extends=True,
    )  # fmt: skip
    ignore: Option[tuple[str, ...]] = Option(
        _IGNORABLE, (),
        "never report these codes, code prefixes or checks (the command line adds to the configuration's)",
        section="findings", commands=("check", "lsp"), extends=True,
    )  # fmt: skip
    per_file_ignores: Option[tuple[tuple[Pattern, tuple[str, ...]], ...]] = Option(
        k.IgnoresByPattern(), (),
        "codes or checks not reported in the files a pattern matches (patterns as `exclude`'s)",
        section="findings", lsp=False,
    )  # fmt: skip
    strict: Option[bool] = Option(
        k.Bool(), False, "warnings fail the run too (exit 1)", section="findings", commands=("check",),
        lsp=False,
    )  # fmt: skip
    output_format: Option[str] = Option(
        k.Choice("text", "json", "sarif", "github"), "text",
        "how diagnostics are printed (also HCLGPU_OUTPUT_FORMAT)",
        section="findings", commands=("check", "render", "plan", "fmt", "dump"), lsp=False,
        flags=("--format", "--output-format"),
    )  # fmt: skip

    # ---- which files
    exclude: Option[tuple[Pattern, ...]] = Option(
        _PATTERNS, (),
        "files and folders not checked or formatted when a folder is walked (gitignore-style,"
        " from the configuration's folder); a file named on the command line is still checked",
        section="files", commands=("check", "fmt"), lsp=False,
    )  # fmt: skip
    extend_exclude: Option[tuple[Pattern, ...]] = Option(
        _PATTERNS, (), "add these to `exclude`", section="files", commands=("check", "fmt"), extends=True,
        lsp=False,
    )  # fmt: skip
    force_exclude: Option[bool] = Option(
        k.Bool(), False,
        "apply `exclude` to files named on the command line too, and skip those that are not job"
        " files (no top-level `job` block) as a folder's walk does: for pre-commit",
        section="files", commands=("check", "fmt"), lsp=False,
    )  # fmt: skip

    # ---- team policies
    policy: Option[tuple[str, ...]] = Option(
        k.Many(k.Path("DIR"), "DIR", "list of paths"), (),
        "directories of Rego policies run on every job (docs/policies.md)",
        section="policies", commands=("check", "lsp"),
    )  # fmt: skip
    policy_namespace: Option[tuple[str, ...]] = Option(
        k.Many(k.Text("PACKAGE"), "PACKAGE", "list of strings"), (),
        "the Rego packages whose deny/warn/violation rules run (not set: main)",
        section="policies", commands=("check", "lsp"), flags=("--policy-namespace", "--namespace"),
        lsp="policyNamespaces",
    )  # fmt: skip
    policy_all_namespaces: Option[bool] = Option(
        k.Bool(), False, "run the rules of every package of the policies",
        section="policies", commands=("check", "lsp"), flags=("--all-namespaces", "--policy-all-namespaces"),
    )  # fmt: skip
    policy_timeout: Option[float | None] = Option(
        k.Seconds(), None, "seconds the policies may take on one job file (not set: 10)",
        section="policies", commands=("check", "lsp"),
    )  # fmt: skip

    # ---- variables and file functions (never from a configuration file: a job's inputs are
    # the run's, and a configuration in a pull request must not widen what a job may read)
    var: Option[tuple[str, ...]] = Option(
        k.Many(k.Text("NAME=VALUE"), "NAME=VALUE", "list of strings"), (), "set an input variable",
        section="inputs", commands=CHECKING, config=False, flags=("--var", "-var"), lsp="vars",
    )  # fmt: skip
    var_file: Option[tuple[str, ...]] = Option(
        k.Many(k.Path("FILE"), "FILE", "list of paths"), (),
        "read variable values from an HCL or JSON file",
        section="inputs", commands=CHECKING, config=False, flags=("--var-file", "-var-file"), lsp="varFiles",
    )  # fmt: skip
    allow_fs: Option[bool] = Option(
        k.Bool(), False, "let file functions read outside the folder they resolve paths from",
        section="inputs", commands=CHECKING, config=False,
    )  # fmt: skip
    file_base: Option[str] = Option(
        k.Choice("working-directory", "job-folder"), "working-directory",
        "where file functions resolve relative paths: the working directory, as Nomad's CLI does"
        " (the editor's: the workspace root), or the job file's folder, for teams that run Nomad"
        " from it",
        section="inputs", commands=CHECKING,
    )  # fmt: skip

    __slots__ = ("_values", "config", "origins")

    def __init__(
        self,
        values: dict[str, object] | None = None,
        origins: dict[str, str] | None = None,
        config: str | None = None,
    ) -> None:
        self._values: dict[str, object] = dict(values or {})
        self.origins: dict[str, str] = dict(origins or {})
        """Where each value that is not the default came from: a configuration file's path,
        ``command line``, ``editor`` or ``api``."""
        self.config = config
        """The configuration file read, if any."""

    @classmethod
    def options(cls) -> list[Option[object]]:
        """Every option, in declaration order."""
        return [value for value in vars(cls).values() if isinstance(value, Option)]

    @classmethod
    def option(cls, name: str) -> Option[object]:
        """An option by its name (``nomad-version``) or attribute (``nomad_version``)."""
        found = vars(cls).get(name.replace("-", "_"))
        if not isinstance(found, Option):
            raise KeyError(name)
        return found

    @property
    def profile(self) -> Profile:
        """The cluster facts the checks read."""
        return self.profile_for("")

    def profile_for(self, target: str) -> Profile:
        """The profile of a translation to ``target`` (named by the command; "" for none)."""
        named = self.targets if target in ("", *self.targets) else (*self.targets, target)
        return Profile(
            self.nomad_version,
            self.enterprise,
            self.memory_oversubscription,
            named,
            self.job_max_count,
            self.job_max_source_size,
            self._nodes_file(),
        )

    def _nodes_file(self) -> tuple[str, int, int] | None:
        """The `nodes` inventory file with its modification time and size (the profile's key
        changes with the file), or None when there is none: `nomad` is the live cluster,
        which `check` never asks."""
        if not self.nodes or self.nodes == "nomad":
            return None
        try:
            stat = os.stat(self.nodes)
        except OSError:
            return (self.nodes, -1, -1)
        return (self.nodes, stat.st_mtime_ns, stat.st_size)

    @property
    def selected(self) -> tuple[str, ...]:
        return self.select + self.extend_select if self.select else ()

    @property
    def excluded_patterns(self) -> tuple[Pattern, ...]:
        return self.exclude + self.extend_exclude

    def excluded(self, path: str, is_dir: bool, ancestors: bool = False) -> bool:
        """Whether ``path`` (or with ``ancestors`` a folder above it) is matched by `exclude`
        or `extend-exclude` (see :meth:`hclgpu.settings.patterns.Pattern.matches`)."""
        return any(pattern.matches(path, is_dir, ancestors) for pattern in self.excluded_patterns)

    def ignored_for(self, path: str) -> tuple[str, ...]:
        """What is not reported in ``path``: `ignore` and every `per-file-ignores` entry whose
        pattern matches it."""
        extra = [codes for pattern, codes in self.per_file_ignores if pattern.matches(path, False, True)]
        return self.ignore + tuple(code for codes in extra for code in codes)

    def shown(self) -> list[tuple[str, str, str]]:
        """(name, value, origin) of every option, as ``--show-settings`` prints them."""
        return [
            (o.name, o.kind.show(getattr(self, o.attr)), self.origins.get(o.attr, "default"))
            for o in self.options()
        ]


__all__ = ["SECTIONS", "Option", "Profile", "Settings"]
