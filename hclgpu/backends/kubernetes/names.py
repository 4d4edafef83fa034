"""Kubernetes names: DNS-1123 labels (containers, ports, services) and subdomains (objects)."""

from __future__ import annotations

import re

_INVALID = re.compile(r"[^a-z0-9-]+")
_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")


def is_dns_label(name: str) -> bool:
    return len(name) <= 63 and bool(_LABEL.fullmatch(name))


def dns_label(name: str, limit: int = 63) -> str:
    """The closest valid DNS-1123 label: lowercase, `-` for anything else, trimmed, at most ``limit``."""
    label = _INVALID.sub("-", name.lower()).strip("-")
    label = re.sub(r"-{2,}", "-", label)[:limit].rstrip("-")
    return label or "x"


def port_name(name: str) -> str:
    """A container port name: an IANA service name, at most 15 characters."""
    return dns_label(name, 15)
