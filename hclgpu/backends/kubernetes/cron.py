"""Nomad's cron expressions as a CronJob's schedule, or why one cannot say it.

Nomad parses `periodic` crons with hashicorp/cronexpr (b51b750): five fields (minute, hour,
day of month, month, day of week; second 0, any year), six (the sixth is the year) or seven
(second first, year last); the aliases @yearly, @annually, @monthly, @weekly, @daily and
@hourly; `L` (last day of the month, `5L` the last Friday), `W` (nearest weekday, `LW`),
`#` (`5#3`, the third Friday); full month and day names.

A CronJob's schedule is read by robfig/cron v3's standard parser: exactly five fields, the
same aliases, `*`, `?`, ranges, steps, lists and three-letter names; no seconds, no year,
no `L`, `W` or `#`, and days of the week 0-6 only.

So a Nomad cron becomes a schedule where they mean the same: a second of 0 and a year of
`*` are dropped, full names shortened, a Sunday written 7 written 0. Anything else is
refused, and the group gets no CronJob (the caller reports it at the cron's line).
"""

from __future__ import annotations

import re

__all__ = ["ALIASES", "kubernetes_schedule"]

ALIASES = ("@yearly", "@annually", "@monthly", "@weekly", "@daily", "@hourly")
"""What cronexpr's cronNormalizer expands (cronexpr_parse.go:205-211) and robfig accepts."""

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december")  # fmt: skip
_DAYS = ("sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday")
_STANDARD = re.compile(r"[0-9A-Za-z*?,/-]+")


def kubernetes_schedule(cron: str) -> tuple[str | None, str]:
    """(the schedule, "") where Kubernetes can say ``cron``; (None, why) where it cannot."""
    text = cron.strip()
    if text in ALIASES:
        return text, ""
    fields = text.split()
    if len(fields) < 5:
        return None, "it has fewer than five fields"
    fields = fields[:7]  # cronexpr ignores fields beyond the seventh
    if len(fields) == 7:
        if fields[0] != "0":
            return None, f"it runs at second {fields[0]}, and a CronJob schedule has no seconds"
        fields = fields[1:]
    if len(fields) == 6:
        if fields[5] not in ("*", "?"):
            return None, f"it names the year {fields[5]}, and a CronJob schedule has no year"
        fields = fields[:5]
    minute, hour, dom, month, dow = fields
    month, days = _shortened(month, _MONTHS), _shortened(dow, _DAYS)
    for name, value in (("day of month", dom), ("day of week", days)):
        special = next((c for c in ("L", "W", "#") if c in value.upper().replace("WED", "")), None)
        if special:
            return None, f"its {name} `{value}` uses `{special}`, which Kubernetes' cron parser does not have"
    sunday = _sunday(days)
    if sunday is None:
        return None, "its day of week uses 7 in a range, and Kubernetes counts days 0-6"
    out = [minute, hour, dom, month, sunday]
    bad = next((f for f in out if not _STANDARD.fullmatch(f)), None)
    if bad is not None:
        return None, f"its field `{bad}` is not one Kubernetes' cron parser reads"
    return " ".join(out), ""


def _shortened(field: str, names: tuple[str, ...]) -> str:
    """Full names (any case) as their three-letter forms, which both parsers read."""
    for name in names:
        field = re.sub(name, name[:3].upper(), field, flags=re.IGNORECASE)
    return field


def _sunday(field: str) -> str | None:
    """Day 7 (cronexpr's other Sunday) as 0 where it stands alone in a list; None where it is
    part of a range or step."""
    parts = field.split(",")
    if any("7" in p.split("/")[0].split("-") and p != "7" for p in parts):
        return None
    return ",".join("0" if p == "7" else p for p in parts)
