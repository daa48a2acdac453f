"""Traffic: state machines over enumerations, as protocol and workflow code writes them.
`Enum`, `IntEnum` and `Flag` members as dict keys and in tuples, identity and ordered
comparisons, `.name` and `.value`, members looked up by value (`Phase(2)`) and combined
flags tested with `in`."""
import enum

import harness


class Phase(enum.Enum):
    RED = 1
    GREEN = 2
    AMBER = 3
    FLASHING = 4


class Signal(enum.IntEnum):
    TICK = 1
    CAR = 2
    WALK = 3
    FAULT = 4


class Lamp(enum.Flag):
    NONE = 0
    RED = enum.auto()
    AMBER = enum.auto()
    GREEN = enum.auto()


NEXT = {
    (Phase.RED, Signal.TICK): Phase.GREEN,
    (Phase.GREEN, Signal.TICK): Phase.AMBER,
    (Phase.AMBER, Signal.TICK): Phase.RED,
    (Phase.GREEN, Signal.WALK): Phase.AMBER,
    (Phase.RED, Signal.FAULT): Phase.FLASHING,
    (Phase.GREEN, Signal.FAULT): Phase.FLASHING,
    (Phase.AMBER, Signal.FAULT): Phase.FLASHING,
    (Phase.FLASHING, Signal.TICK): Phase.RED,
}

LAMPS = {
    Phase.RED: Lamp.RED,
    Phase.GREEN: Lamp.GREEN,
    Phase.AMBER: Lamp.AMBER,
    Phase.FLASHING: Lamp.AMBER | Lamp.RED,
}


def signal_for(r):
    if r == 0:
        return Signal.FAULT
    if r < 4:
        return Signal.WALK
    return Signal.CAR if r < 7 else Signal.TICK


def run_junction(seed, steps):
    phase = Phase.RED
    visits = {p: 0 for p in Phase}
    lit_red = 0
    log = []
    x = seed
    for _ in range(steps):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        r = (x >> 16) % 20
        signal = signal_for(r)
        new = NEXT.get((phase, signal), phase)
        if new is not phase and signal >= Signal.WALK:
            log.append(new.name)
        phase = new
        visits[phase] += 1
        if Lamp.RED in LAMPS[phase]:
            lit_red += 1
    return visits, lit_red, log


def workload():
    totals = {p.name: 0 for p in Phase}
    red = 0
    events = 0
    for seed in range(12):
        visits, lit_red, log = run_junction(seed, 120)
        for p, n in visits.items():
            totals[p.name] += n * Phase(p.value).value
        red += lit_red
        events += len(log)
    return sorted(totals.items()), red, events


WANT = ([('AMBER', 1287), ('FLASHING', 356), ('GREEN', 820), ('RED', 512)], 601, 121)


def check(result):
    return None if result == WANT else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("traffic", workload, check, calls=30)
