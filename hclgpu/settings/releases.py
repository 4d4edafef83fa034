"""The Nomad releases hclgpu checks job files against, from 1.8.0 to the newest it knows.

Every server check carries the release that added it and, once gone, the release that
removed it (:class:`hclgpu.checks.server.Condition`), so a team states its cluster's release
to the patch (``nomad-version = "2.0.5"``) and gets exactly that release's checks. A minor
release alone (``2.0``) means its newest patch.
"""

from __future__ import annotations

Release = tuple[int, int, int]

NEWEST_PATCH: dict[tuple[int, int], int] = {(1, 8): 4, (1, 9): 7, (1, 10): 5, (1, 11): 3, (2, 0): 6}
"""Each minor release hclgpu knows and its newest patch release (hashicorp/nomad's tags,
and 2.0.6 at the commit its server checks are read at, aa026cc99c)."""

OLDEST: Release = (1, 8, 0)
NEWEST: Release = (2, 0, 6)


def release_text(release: Release) -> str:
    return ".".join(map(str, release))


def known_releases() -> str:
    """The releases accepted, as a user reads them: ``1.8.0-1.8.4, 1.9.0-1.9.7, ...``."""
    return ", ".join(f"{a}.{b}.0-{a}.{b}.{patch}" for (a, b), patch in NEWEST_PATCH.items())


def parse_release(text: str) -> Release:
    """``X.Y`` (its newest patch) or ``X.Y.Z``, a release hclgpu knows; ValueError saying
    which releases it knows otherwise."""
    parts = text.strip().removeprefix("v").split(".")
    if not (2 <= len(parts) <= 3) or not all(part.isdigit() and part.isascii() for part in parts):
        raise ValueError(f"`{text}` is not a Nomad release such as 2.0 or 2.0.5")
    major, minor = int(parts[0]), int(parts[1])
    newest = NEWEST_PATCH.get((major, minor))
    if newest is None:
        raise ValueError(f"hclgpu does not know Nomad {major}.{minor}; it knows {known_releases()}")
    patch = int(parts[2]) if len(parts) == 3 else newest
    if patch > newest:
        raise ValueError(
            f"hclgpu does not know Nomad {major}.{minor}.{patch}: its newest {major}.{minor} release"
            f" is {major}.{minor}.{newest}"
        )
    return (major, minor, patch)


def all_releases() -> list[Release]:
    """Every release hclgpu knows, oldest first."""
    return [(a, b, patch) for (a, b), newest in NEWEST_PATCH.items() for patch in range(newest + 1)]
