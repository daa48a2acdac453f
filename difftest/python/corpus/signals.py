# pydiff: all-compiled
# pydiff: min-breaker_calls=1
# Signals reach compiled loops: a SIGALRM handler that raises out of a `while True` loop
# (the exception and its traceback line as stock), one that only counts while the loop
# waits for it, a handler that sees the loop's frame, and faulthandler's watchdog thread
# dumping the stack of a compiled loop. A signal made by a call (_thread.interrupt_main, a
# 1 us timer) is handled right after that call, as the interpreter does.
import _thread
import faulthandler
import signal
import tempfile
import time

hits = 0


def raising_handler(signum, frame):
    global hits
    hits += 1
    if hits == 3:
        raise KeyboardInterrupt("third alarm")


def counting_handler(signum, frame):
    global hits
    hits += 1
    seen.append(frame.f_code.co_name)


seen = []


# A loop that only a signal ends (given up after 20 s, so a JIT that misses it fails fast).
# One line: the interpreter takes the signal after the call or at the back-edge, whichever
# comes first, and the traceback's line must not depend on which (it did: 37 or 39).
def spin_forever():
    give_up = time.monotonic() + 20
    while time.monotonic() < give_up: pass  # noqa: E701
    print("not interrupted")


def spin_until_three_alarms():
    n = 0
    give_up = time.monotonic() + 20
    while hits < 3:
        n += 1
        if n % 4096 == 0 and time.monotonic() > give_up:
            return False
    return n > 0


def alarms(handler, interval):
    global hits
    hits = 0
    signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, interval, interval)


def stop_alarms():
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)


def raising_case():
    alarms(raising_handler, 0.05)
    try:
        spin_forever()
    except KeyboardInterrupt as e:
        chain, tb = [], e.__traceback__
        while tb is not None:
            chain.append((tb.tb_frame.f_code.co_name, tb.tb_lineno))
            tb = tb.tb_next
        print("interrupted:", e, "hits", hits, "traceback", chain)
    finally:
        stop_alarms()


def counting_case():
    alarms(counting_handler, 0.05)
    try:
        print("loop ran:", spin_until_three_alarms(), "hits", hits, "frames", sorted(set(seen)))
    finally:
        stop_alarms()


def spin_for_watchdog(seconds):
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        n += 1
    return n


def watchdog_case():
    with tempfile.TemporaryFile("w+") as f:
        faulthandler.dump_traceback_later(0.1, file=f)
        spin_for_watchdog(0.6)
        faulthandler.cancel_dump_traceback_later()
        f.seek(0)
        functions = [line.split(" in ")[-1] for line in f.read().splitlines() if " in " in line]
        print("watchdog saw:", functions[:2])


def interrupt_at_the_call():
    try:
        _thread.interrupt_main()
        return "not raised at the call"
    except KeyboardInterrupt:
        return "KeyboardInterrupt at the call"


def tiny_timer_then_sleep():
    global hits
    hits = 0
    signal.signal(signal.SIGALRM, counting_handler)
    signal.setitimer(signal.ITIMER_REAL, 1e-6)
    time.sleep(0.2)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    return hits


raising_case()
counting_case()
watchdog_case()
print(interrupt_at_the_call())
print("tiny timer handled:", tiny_timer_then_sleep())
