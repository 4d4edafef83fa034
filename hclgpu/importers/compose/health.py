"""A compose `healthcheck` as a Nomad service check.

The compose back end (:mod:`hclgpu.backends.docker.checks`) turns an http check into a
``curl ... || wget ... || exit 1`` line and a tcp check into ``nc -z ... || bash ...``;
those exact lines come back as the http and tcp checks they were. A plain ``curl`` of a
localhost URL becomes an http check too (HG302: Nomad probes through the published port,
from outside the container). Any other test runs inside the task as a `script` check, which
is what a Docker healthcheck is.
"""

from __future__ import annotations

import re
import shlex
from typing import Any
from urllib.parse import urlsplit

from hclgpu.importers.common import whole_number
from hclgpu.importers.compose.draft import CheckSpec, Draft
from hclgpu.importers.compose.findings import Findings
from hclgpu.importers.compose.values import duration_ns, string_list

_HTTP = re.compile(r"curl -fs(k?) -o /dev/null (\S+|'[^']*') \|\| wget -q .* \|\| exit 1")
_TCP = re.compile(r'nc -z localhost (\d{1,9}) \|\| bash -c "exec 3<>/dev/tcp/localhost/\1" \|\| exit 1')
_SHELL = re.compile(r"[|&;<>()$`\\\"'*?\[\]#~\n]")
_LOCAL = ("localhost", "127.0.0.1", "0.0.0.0", "::1")
_CURL_FLAGS = frozenset("fsSk")
DOCKER_DEFAULT_NS = 30_000_000_000
"""Docker's interval and timeout when a healthcheck sets none; Nomad needs both."""


def healthcheck(draft: Draft, value: Any, findings: Findings) -> None:
    where = draft.at("healthcheck")
    if not isinstance(value, dict):
        findings.left_out(where, "`healthcheck` is not a mapping; left out")
        return
    if value.get("disable") is True or string_list(value.get("test")) == ["NONE"]:
        findings.left_out(where, "turning off the image's HEALTHCHECK has no Nomad form; left out")
        return
    spec = _spec(value.get("test"))
    if spec is None:
        findings.left_out(draft.at("healthcheck", "test"), "not a healthcheck test; the check is left out")
        return
    timing = _timing(draft, value, findings)
    for check in (spec.check, spec.fallback):
        if check is not None:
            check.update(timing)
    draft.check = spec


def _timing(draft: Draft, value: dict[str, Any], findings: Findings) -> dict[str, int]:
    """Docker's defaults where the file sets none: 30s interval and timeout.

    Docker's ``retries`` (3 unless set) has no place: the imported services register with
    Nomad, whose server refuses ``failures_before_critical`` on their checks
    (``ServiceCheck.validateNomad``, nomad/structs/services.go:395 at aa026cc99c), so the
    check turns critical at its first failure."""
    out = {"Interval": DOCKER_DEFAULT_NS, "Timeout": DOCKER_DEFAULT_NS}
    for key, item in value.items():
        where = draft.at("healthcheck", str(key))
        if key in ("interval", "timeout") and duration_ns(item):
            out[str(key).capitalize()] = duration_ns(item) or 0
        elif key == "retries" and whole_number(item) is not None:
            if item > 1:
                findings.left_out(
                    where,
                    "healthcheck `retries`: a Nomad service check is critical at its first failure; left out",
                )
        elif key not in ("test", "disable"):
            findings.left_out(where, f"healthcheck `{key}` has no Nomad check equivalent; left out")
    return out


def _spec(test: Any) -> CheckSpec | None:
    """CMD-SHELL lines and CMD lists; None for anything else."""
    words = string_list(test) if isinstance(test, list) else None
    if isinstance(test, str):
        return _shell(test)
    if not words or len(words) < 2:
        return None
    if words[0] == "CMD-SHELL":
        return _shell(" ".join(words[1:]))
    if words[0] == "CMD":
        return _argv(words[1:]) or CheckSpec(_script(words[1:]))
    return None


def _shell(line: str) -> CheckSpec:
    fallback = _script(["/bin/sh", "-c", line])
    http = _HTTP.fullmatch(line)
    if http is not None:
        probe = _url(shlex.split(http.group(2))[0])
        if probe is not None:
            scheme, port, path = probe
            check = _http(scheme, path, insecure=bool(http.group(1)))
            return CheckSpec(check, port, fallback)
    tcp = _TCP.fullmatch(line)
    if tcp is not None:
        return CheckSpec({"Type": "tcp"}, int(tcp.group(1)), fallback)
    if not _SHELL.search(line):
        spec = _argv(shlex.split(line))
        if spec is not None:
            return spec
    return CheckSpec(fallback)


def _argv(words: list[str]) -> CheckSpec | None:
    """``curl [-fsSk] [-o /dev/null] URL`` of a localhost URL as an http check."""
    if not words or words[0] != "curl":
        return None
    flags, urls, rest = set(), [], iter(words[1:])
    for word in rest:
        if word == "-o":
            if next(rest, None) != "/dev/null":
                return None
        elif word.startswith("-") and set(word[1:]) <= _CURL_FLAGS:
            flags |= set(word[1:])
        elif word in ("--fail", "--silent", "--show-error", "--insecure"):
            flags.add({"--fail": "f", "--insecure": "k"}.get(word, "s"))
        elif not word.startswith("-"):
            urls.append(word)
        else:
            return None
    probe = _url(urls[0]) if len(urls) == 1 else None
    if probe is None:
        return None
    note = (
        "curl → an http check: Nomad sends the GET from outside the container, to the published port, "
        "and fails on any status that is not 2xx" + ("" if "f" in flags else " (curl without -f did not)")
    )
    scheme, port, path = probe
    return CheckSpec(_http(scheme, path, insecure="k" in flags), port, _script(words), note)


def _url(url: str) -> tuple[str, int, str] | None:
    try:
        parts = urlsplit(url)
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or parts.hostname not in _LOCAL or port is None:
        return None
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, port, path


def _http(scheme: str, path: str, insecure: bool) -> dict[str, Any]:
    check: dict[str, Any] = {"Type": "http", "Path": path}
    if scheme == "https":
        check["Protocol"] = "https"
        if insecure:
            check["TLSSkipVerify"] = True
    return check


def _script(words: list[str]) -> dict[str, Any]:
    check: dict[str, Any] = {"Type": "script", "Command": words[0] if words else ""}
    if words[1:]:
        check["Args"] = words[1:]
    return check
