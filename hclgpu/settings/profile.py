"""The facts of a team's cluster that change what `check` reports (the profile).

A finding that depends on a fact of the cluster is reported only when the profile states
that fact: `memory_max` is ignored only where memory oversubscription is off, an Enterprise
feature refused only by a Community Edition server. A finding about one translation target
(Kubernetes names, HG267) is reported only when the profile or the command names that target.
"""

from __future__ import annotations

from hclgpu.settings.releases import NEWEST, Release, release_text

TARGETS = ("nomad", "kubernetes", "oci", "docker", "compose")
"""The translation targets a profile may name (``hclgpu render --target``)."""


class Profile:
    """The cluster a job is checked for. A plain class with slots: it is part of every check
    cache key, and a warm ``check`` must not pay for importing dataclasses."""

    __slots__ = (
        "enterprise", "job_max_count", "job_max_source_size", "memory_oversubscription", "nodes", "release",
        "targets",
    )  # fmt: skip

    def __init__(
        self,
        release: Release = NEWEST,
        enterprise: bool | None = None,
        memory_oversubscription: bool | None = None,
        targets: tuple[str, ...] = (),
        job_max_count: int = 50_000,
        job_max_source_size: int = 1_000_000,
        nodes: tuple[str, int, int] | None = None,
    ) -> None:
        self.release = release
        """The Nomad release of the servers, to the patch."""
        self.enterprise = enterprise
        """Nomad Enterprise (True), Community Edition (False), or not stated (None)."""
        self.memory_oversubscription = memory_oversubscription
        """The scheduler configuration's ``memory_oversubscription_enabled``, None unless stated."""
        self.targets = tuple(sorted(set(targets)))
        """The targets the job is translated to, besides Nomad (sorted: a set)."""
        self.job_max_count = job_max_count
        """The servers' `job_max_count` (Nomad's default: 50,000)."""
        self.job_max_source_size = job_max_source_size
        """The servers' `job_max_source_size` in bytes (Nomad's default, "1M": 1,000,000)."""
        self.nodes = nodes
        """The fleet's inventory file, as ``(path, modification time in ns, size)`` so that a
        changed file changes the key (-1, -1 when it cannot be read); None without one. The
        checks that read it load it themselves (:mod:`hclgpu.plan.fleet`, a higher layer)."""

    def fact(self, name: str) -> bool | None:
        """A cluster fact by its setting's name; None when the profile does not state it."""
        if name == "enterprise":
            return self.enterprise
        if name == "memory-oversubscription":
            return self.memory_oversubscription
        raise KeyError(name)

    def key(self) -> tuple[object, ...]:
        return (
            self.release, self.enterprise, self.memory_oversubscription, self.targets, self.job_max_count,
            self.job_max_source_size, self.nodes,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Profile) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __reduce__(self) -> tuple[type[Profile], tuple[object, ...]]:
        return (Profile, self.key())

    def __repr__(self) -> str:
        return (
            f"Profile(nomad {release_text(self.release)}, enterprise={self.enterprise},"
            f" memory_oversubscription={self.memory_oversubscription}, targets={list(self.targets)},"
            f" job_max_count={self.job_max_count}, job_max_source_size={self.job_max_source_size},"
            f" nodes={self.nodes!r})"
        )
