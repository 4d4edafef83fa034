"""Nomad crons (hashicorp/cronexpr) as CronJob schedules (robfig/cron's standard parser):
translated where both mean the same times, refused with an error otherwise."""

from __future__ import annotations

import pytest

from hclgpu.backends.kubernetes.cron import kubernetes_schedule
from tests.test_k8s_workloads import lower, simple


@pytest.mark.parametrize(
    ("cron", "schedule"),
    [
        ("*/15 * * * *", "*/15 * * * *"),
        ("@daily", "@daily"),
        ("0 30 2 * * 1-5 *", "30 2 * * 1-5"),  # seven fields: second 0 and any year are dropped
        ("0 3 * * * *", "0 3 * * *"),  # six fields: the sixth is the year
        ("0 9 * January,July Monday", "0 9 * JAN,JUL MON"),  # full names: robfig has three letters
        ("0 0 * * 7", "0 0 * * 0"),  # cronexpr's other Sunday
        ("0 0 * * */7", "0 0 * * */7"),  # a step of 7 is not a day
        ("0 0 1 * ? 2027 extra", None),  # a year: no CronJob
    ],
)
def test_translated_where_both_parsers_mean_the_same(cron: str, schedule: str | None) -> None:
    assert kubernetes_schedule(cron)[0] == schedule


@pytest.mark.parametrize(
    ("cron", "reason"),
    [
        ("0 0 L * *", "uses `L`"),  # last day of the month
        ("0 0 * * 5L", "uses `L`"),  # last Friday
        ("0 0 15W * *", "uses `W`"),  # nearest weekday
        ("0 0 * * 5#3", "uses `#`"),  # third Friday
        ("30 0 0 * * * *", "second 30"),
        ("0 0 * * * 2030", "year 2030"),
        ("0 0 * * 5-7", "7 in a range"),
        ("0 0 *", "fewer than five"),
    ],
)
def test_refused_where_kubernetes_cannot_say_it(cron: str, reason: str) -> None:
    schedule, why = kubernetes_schedule(cron)
    assert schedule is None and reason in why


BATCH = '  type = "batch"\n  periodic {\n    crons = ["%s"]\n  }\n'


def test_a_cron_kubernetes_cannot_say_is_an_error_and_no_cron_job() -> None:
    out = lower(simple(BATCH % "0 0 L * *"))
    assert not [o for o in out.objects if o["kind"] == "CronJob"]
    [error] = [d for d in out.diagnostics if d.code == "HG301" and "cannot be a CronJob" in d.message]
    assert str(error.severity) == "error" and error.span is not None
    assert out.text[error.span.start :].startswith("periodic")


def test_a_translated_cron_is_said_and_scheduled() -> None:
    out = lower(simple(BATCH % "0 30 2 * * 1-5 *"))
    [cron_job] = [o for o in out.objects if o["kind"] == "CronJob"]
    assert cron_job["spec"]["schedule"] == "30 2 * * 1-5"
    assert out.lines("HG302", 'schedule "30 2 * * 1-5"') == [out.line("periodic {")]
