"""A group's restart and reschedule policies as Nomad's server validates them (HG270, HG271).

`RestartPolicy.Validate` and `ReschedulePolicy.Validate` (nomad/structs/structs.go), which
`TaskGroup.Validate` calls: what Nomad does when a task fails (restart it in place, so many
times in an interval, with a delay between) and when an allocation fails (place it again,
with delays that may grow, a limited number of times in an interval or without limit).
Since 1.11 a system or sysbatch group may have no reschedule policy at all (HG269,
:mod:`hclgpu.checks.groups`); before, a system group's was refused here and a sysbatch
group's was validated like a batch one's.

The policies are read from the canonical job: the job's `reschedule` block merged under the
group's, then the defaults of the job type, as the agent sends them. A finding points at
the attribute that set the value, in the group's block or else the job's; a value nobody
wrote is blamed on the block (or the group) that left it to the default.
"""

from __future__ import annotations

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.groups import SYSTEM_RESCHEDULE
from hclgpu.checks.server import SECOND, Condition, at, go_duration, reject
from hclgpu.codes.base import Code, E
from hclgpu.ir import models as m
from hclgpu.ir.base import Node

HG270 = Code(
    "HG270",
    "invalid-restart-policy",
    E,
    summary="A `restart` policy Nomad refuses",
    doc="""What: a group's restart policy, with the defaults of its job type filled in (service and
system: 2 attempts in 30m, 15s delay, mode fail; batch: 3 attempts in 24h), has an
unknown `mode`, 0 attempts with mode `delay`, an `interval` under 5s, or more `attempts`
x `delay` than fits in `interval`.

Why: Nomad rejects the job at registration (`RestartPolicy.Validate`): "Nomad can't
restart the TaskGroup 10 times in an interval of 1m0s with a delay of 15s".

Example:
    restart {
      attempts = 10
      interval = "1m"
    }

Fix: lower `attempts` or `delay`, or lengthen `interval`.""",
)


HG271 = Code(
    "HG271",
    "invalid-reschedule-policy",
    E,
    summary="A `reschedule` policy Nomad refuses",
    doc="""What: a group's reschedule policy, merged over the job's and the defaults of the job
type, is ambiguous (`attempts` with `unlimited = true`, as a service job's default is),
has a `delay` or `max_delay` under 5s, an unknown `delay_function`, an `interval` under
15s, or cannot fit its attempts in its interval; or the group is in a system job (before
Nomad 1.11, which reports that as HG269 and refuses sysbatch policies too).

Why: Nomad rejects the job at registration (`ReschedulePolicy.Validate`): "Nomad can only
make 4 attempts in 20s with initial delay 5s and delay function \"constant\"".

Example:
    reschedule {
      attempts = 3
      interval = "1h"
    }   # in a service job: unlimited stays true

Fix: set `unlimited = false` with `attempts`, or drop `attempts`; keep delays at 5s or
more.""",
)


S = "nomad/structs/structs.go"

RESTART_MODE = Condition(
    "restart-mode",
    code=HG270,
    nomad="RestartPolicy.Validate",
    source=f"{S}:6570",
    condition="`restart { mode }` is not delay or fail",
    message="Unsupported restart mode: {mode!r}",
)
RESTART_AMBIGUOUS = Condition(
    "restart-zero-attempts",
    code=HG270,
    nomad="RestartPolicy.Validate",
    source=f"{S}:6575",
    condition='`attempts = 0` with a mode other than "fail"',
    message="Restart policy {mode!r} with {attempts} attempts is ambiguous",
)
RESTART_INTERVAL = Condition(
    "restart-interval",
    code=HG270,
    nomad="RestartPolicy.Validate",
    source=f"{S}:6579",
    condition="`restart { interval }` < 5s",
    message="Interval can not be less than 5s (got {interval})",
)
RESTART_FIT = Condition(
    "restart-attempts-do-not-fit",
    code=HG270,
    nomad="RestartPolicy.Validate",
    source=f"{S}:6583",
    condition="`attempts` x `delay` > `interval`",
    message="Nomad can't restart the TaskGroup {attempts} times in an interval of {interval} with a delay"
    " of {delay}",
)
RESCHEDULE_INTERVAL_ZERO = Condition(
    "reschedule-attempts-without-interval",
    code=HG271,
    nomad="ReschedulePolicy.Validate",
    source=f"{S}:6655",
    condition="`attempts` > 0 with `interval` 0",
    message="Interval must be a non zero value if Attempts > 0",
)
RESCHEDULE_AMBIGUOUS = Condition(
    "reschedule-attempts-and-unlimited",
    code=HG271,
    nomad="ReschedulePolicy.Validate",
    source=f"{S}:6658",
    condition="`attempts` > 0 while `unlimited = true` (a service job's default)",
    message="Reschedule Policy with Attempts = {attempts}, Interval = {interval}, and Unlimited = true is"
    " ambiguous",
)
RESCHEDULE_UNLIMITED = Condition(
    "reschedule-unlimited-with-attempts",
    code=HG271,
    nomad="ReschedulePolicy.Validate",
    source=f"{S}:6660",
    condition="`attempts` > 0 while `unlimited = true` (Nomad's second error for it)",
    message="If Attempts >0, Unlimited cannot also be set to true",
)
RESCHEDULE_DELAY = Condition(
    "reschedule-delay",
    code=HG271,
    nomad="ReschedulePolicy.Validate",
    source=f"{S}:6667",
    condition="`delay` < 5s",
    message="Delay cannot be less than 5s (got {delay})",
)
RESCHEDULE_FUNCTION = Condition(
    "reschedule-delay-function",
    code=HG271,
    nomad="ReschedulePolicy.Validate",
    source=f"{S}:6673",
    condition="`delay_function` is not constant, exponential or fibonacci",
    message='Invalid delay function {function!r}, must be one of ["constant" "exponential" "fibonacci"]',
)
RESCHEDULE_MAX_DELAY = Condition(
    "reschedule-max-delay",
    code=HG271,
    nomad="ReschedulePolicy.Validate",
    source=f"{S}:6680",
    condition="`max_delay` < 5s with a delay function other than constant (Nomad prints the delay)",
    message="Max Delay cannot be less than 5s (got {delay})",
)
RESCHEDULE_MAX_BELOW = Condition(
    "reschedule-max-delay-below-delay",
    code=HG271,
    nomad="ReschedulePolicy.Validate",
    source=f"{S}:6684",
    condition="`max_delay` < `delay` with a delay function other than constant",
    message="Max Delay cannot be less than Delay {delay} (got {max_delay})",
)
RESCHEDULE_INTERVAL = Condition(
    "reschedule-interval",
    code=HG271,
    nomad="ReschedulePolicy.Validate",
    source=f"{S}:6693",
    condition="`interval` < 15s when attempts are limited",
    message="Interval cannot be less than 15s (got {interval})",
)
RESCHEDULE_FIT = Condition(
    "reschedule-attempts-do-not-fit",
    code=HG271,
    nomad="ReschedulePolicy.validateDelayParams",
    source=f"{S}:6729",
    condition="the delays of the limited attempts do not fit in `interval`",
    message="Set the interval to at least {interval} to accommodate {attempts} attempts",
)
RESCHEDULE_CONSTANT_FIT = Condition(
    "reschedule-constant-delays-do-not-fit",
    code=HG271,
    nomad="ReschedulePolicy.validateDelayParams",
    source=f"{S}:6723",
    condition='with `delay_function = "constant"`, `attempts` x `delay` > `interval` (attempts limited)',
    message="Nomad can only make {possible} attempts in {interval} with initial delay {delay}"
    " and delay function {function!r}",
)
RESCHEDULE_GROWING_FIT = Condition(
    "reschedule-growing-delays-do-not-fit",
    code=HG271,
    nomad="ReschedulePolicy.validateDelayParams",
    source=f"{S}:6726",
    condition="with an exponential or fibonacci `delay_function`, the delays of the limited attempts"
    " (capped at `max_delay`) do not fit in `interval`",
    message="Nomad can only make {possible} attempts in {interval} with initial delay {delay},"
    " delay function {function!r}, and delay ceiling {max_delay}",
)
SYSTEM_RESCHEDULE_LEGACY = Condition(
    "system-job-reschedule",
    code=HG271,
    nomad="TaskGroup.Validate",
    source=f"{S}:7102",
    condition="a system job's group has a `reschedule` block (its own or the job's); sysbatch policies"
    " were validated like batch ones",
    message="System jobs should not have a reschedule policy",
    until=(1, 11, 0),
    tag="v1.10.0",
)

RESCHEDULE_MIN_DELAY = 5 * SECOND
RESCHEDULE_MIN_INTERVAL = 15 * SECOND


@rule(HG270)
def restart_policies(ctx: Context) -> None:
    for group, written in zip(ctx.canonical.task_groups or [], ctx.job.task_groups or [], strict=False):
        policy = group.restart_policy
        if policy is None:
            continue
        where = f"group `{group.name}`"
        nodes: list[Node | None] = [written.restart_policy, written]
        mode, attempts = policy.mode or "", policy.attempts or 0
        interval, delay = policy.interval or 0, policy.delay or 0
        if mode not in ("delay", "fail"):
            reject(
                ctx,
                RESTART_MODE,
                at(ctx, nodes, "mode"),
                where=where,
                mode=mode,
                help='use `mode = "fail"` or `"delay"`',
            )
        if attempts == 0 and mode != "fail":
            reject(
                ctx,
                RESTART_AMBIGUOUS,
                at(ctx, nodes, "attempts"),
                where=where,
                mode=mode,
                attempts=attempts,
                help='with no restarts, say `mode = "fail"`',
            )
        if interval < 5 * SECOND:
            reject(
                ctx,
                RESTART_INTERVAL,
                at(ctx, nodes, "interval"),
                where=where,
                interval=go_duration(interval),
                help='use an interval of at least "5s"',
            )
        if attempts * delay > interval:
            reject(
                ctx,
                RESTART_FIT,
                at(ctx, nodes, "attempts", "delay", "interval"),
                where=where,
                attempts=attempts,
                interval=go_duration(interval),
                delay=go_duration(delay),
                help=f"lengthen `interval` to at least {go_duration(attempts * delay)},"
                " or lower `attempts` or `delay`",
            )


@rule(HG271)
def reschedule_policies(ctx: Context) -> None:
    job_type = ctx.canonical.type or "service"
    # Since 1.11 sysbatch groups are refused a policy outright too (HG269); before, theirs
    # was validated like any other.
    refused = ("system", "sysbatch") if SYSTEM_RESCHEDULE.holds_in(ctx.profile.release) else ()
    for group, written in zip(ctx.canonical.task_groups or [], ctx.job.task_groups or [], strict=False):
        policy = group.reschedule_policy
        where = f"group `{group.name}`"
        if job_type == "system" and policy is not None:
            reject(
                ctx,
                SYSTEM_RESCHEDULE_LEGACY,
                at(ctx, [written.reschedule_policy, ctx.job.reschedule]),
                where=where,
                help="remove the `reschedule` block: Nomad does not reschedule system jobs",
            )
        if job_type == "system" or job_type in refused:
            continue
        if policy is None or not ((policy.attempts or 0) > 0 or policy.unlimited):
            continue  # ReschedulePolicy.Enabled
        nodes: list[Node | None] = [written.reschedule_policy, ctx.job.reschedule, written]
        _reschedule_attempts(ctx, policy, nodes, where)
        viable = _reschedule_delays(ctx, policy, nodes, where)
        if not policy.unlimited:
            _reschedule_window(ctx, policy, nodes, where, viable=viable)


def _reschedule_attempts(
    ctx: Context, policy: m.ReschedulePolicy, nodes: list[Node | None], where: str
) -> None:
    """Limited attempts need a window, and contradict `unlimited = true`."""
    attempts, interval = policy.attempts or 0, policy.interval or 0
    if attempts <= 0:
        return
    if interval <= 0:
        reject(
            ctx,
            RESCHEDULE_INTERVAL_ZERO,
            at(ctx, nodes, "interval", "attempts"),
            where=where,
            help='set `interval`, e.g. "1h", the window the attempts count in',
        )
    if policy.unlimited:
        span = at(ctx, nodes, "attempts", "unlimited")
        fix = (
            "set `unlimited = false` to limit the attempts"
            " (a service job reschedules without limit by default)"
        )
        reject(
            ctx,
            RESCHEDULE_AMBIGUOUS,
            span,
            where=where,
            attempts=attempts,
            interval=go_duration(interval),
            help=fix,
        )
        reject(ctx, RESCHEDULE_UNLIMITED, span, where=where, help=fix)


def _reschedule_delays(
    ctx: Context, policy: m.ReschedulePolicy, nodes: list[Node | None], where: str
) -> bool:
    """The delay checks; whether they passed (Nomad's ``delayPreCheck``), without which it
    does not work out how many attempts fit."""
    delay, max_delay = policy.delay or 0, policy.max_delay or 0
    function = policy.delay_function or ""
    viable = delay >= RESCHEDULE_MIN_DELAY and function in ("constant", "exponential", "fibonacci")
    if delay < RESCHEDULE_MIN_DELAY:
        reject(
            ctx,
            RESCHEDULE_DELAY,
            at(ctx, nodes, "delay"),
            where=where,
            delay=go_duration(delay),
            help='use a delay of at least "5s"',
        )
    if function not in ("constant", "exponential", "fibonacci"):
        reject(
            ctx,
            RESCHEDULE_FUNCTION,
            at(ctx, nodes, "delay_function"),
            where=where,
            function=function,
            help="use constant, exponential or fibonacci",
        )
    if function == "constant":
        return viable
    if max_delay < RESCHEDULE_MIN_DELAY:
        reject(
            ctx,
            RESCHEDULE_MAX_DELAY,
            at(ctx, nodes, "max_delay"),
            where=where,
            delay=go_duration(delay),
            help='use a max_delay of at least "5s"',
        )
        viable = False
    if max_delay < delay:
        reject(
            ctx,
            RESCHEDULE_MAX_BELOW,
            at(ctx, nodes, "max_delay"),
            where=where,
            delay=go_duration(delay),
            max_delay=go_duration(max_delay),
            help="raise `max_delay` to at least `delay`",
        )
        viable = False
    return viable


def _reschedule_window(
    ctx: Context, policy: m.ReschedulePolicy, nodes: list[Node | None], where: str, *, viable: bool
) -> None:
    """Limited attempts: the interval's minimum, then whether the attempts' delays fit in it."""
    interval = policy.interval or 0
    if interval < RESCHEDULE_MIN_INTERVAL:
        reject(
            ctx,
            RESCHEDULE_INTERVAL,
            at(ctx, nodes, "interval"),
            where=where,
            interval=go_duration(interval),
            help='use an interval of at least "15s"',
        )
    shortfall = attempts_shortfall(policy) if viable else None
    if shortfall is None:
        return
    possible, needed = shortfall
    rounded = go_duration(round(needed / SECOND) * SECOND)
    span = at(ctx, nodes, "interval", "attempts")
    fix = f"lengthen `interval` to {rounded}, or lower `attempts`"
    function = policy.delay_function or ""
    reject(
        ctx,
        RESCHEDULE_CONSTANT_FIT if function == "constant" else RESCHEDULE_GROWING_FIT,
        span,
        where=where,
        possible=possible,
        interval=go_duration(interval),
        delay=go_duration(policy.delay or 0),
        function=function,
        max_delay=go_duration(policy.max_delay or 0),
        help=fix,
    )
    reject(ctx, RESCHEDULE_FIT, span, where=where, interval=rounded, attempts=policy.attempts or 0, help=fix)


def attempts_shortfall(policy: m.ReschedulePolicy) -> tuple[int, int] | None:
    """``viableAttempts``: when the attempts do not fit in the interval, how many do and the
    interval Nomad recommends; None when they fit."""
    attempts, interval = policy.attempts or 0, policy.interval or 0
    delay, max_delay = policy.delay or 0, policy.max_delay or 0
    function = policy.delay_function
    if function == "constant":
        needed = attempts * delay
        return (max(0, interval // delay), needed) if interval < needed else None
    if function == "exponential":
        needed, possible = 0, 0
        for index in range(attempts):
            step = 2**index * delay
            if step > max_delay:
                needed += max_delay
            else:
                needed = step
            possible += needed < interval
        return (possible, needed) if possible < attempts else None
    slots = [delay, delay]
    ceiling = False
    for index in range(2, attempts):
        if ceiling:
            step = slots[index - 1] + max_delay
        else:
            step = slots[index - 1] + slots[index - 2]
            if step > max_delay:
                step, ceiling = max_delay, True
        slots.append(step)
    if interval >= slots[-1]:
        return None
    return next(index for index, slot in enumerate(slots) if slot > interval), slots[-1]
