#!/usr/bin/python3.11
"""How soon a compiled loop lets a signal handler and another thread run.

Two figures, each over ROUNDS rounds, printed as median and maximum in milliseconds:
  signal  SIGALRM is due at a known time while the main thread spins in a loop; the
          handler notes how late it ran.
  gil     a second thread sleeps 1 ms and notes how long after waking it got the GIL
          back, while the main thread spins; stock CPython hands it over at the switch
          interval (5 ms by default).
Run it stock (`a64jit-run --no-jit`) and with the JIT (`a64jit-run --threshold=0`) and
compare; with the JIT it also prints the statistics that prove the loop ran compiled.
An argument sets the switch interval in milliseconds first (sys.setswitchinterval), to see
that the gil figure follows it.
"""
import json
import signal
import statistics
import sys
import threading
import time

ROUNDS = 20


def spin(state):
    # The loop under test: no call in its body, so only its back-edge check can stop it.
    n = 0
    while not state["done"]:
        n += 1
    return n


def signal_latency():
    delays = []
    state = {"done": False}

    def handler(signum, frame):
        delays.append(time.perf_counter() - state["due"])
        state["done"] = True

    signal.signal(signal.SIGALRM, handler)
    for _ in range(ROUNDS):
        state["done"] = False
        state["due"] = time.perf_counter() + 0.02
        signal.setitimer(signal.ITIMER_REAL, 0.02)
        spin(state)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    return delays


def gil_latency():
    delays = []
    state = {"done": False}

    def sleeper():
        for _ in range(ROUNDS):
            start = time.perf_counter()
            time.sleep(0.001)
            delays.append(time.perf_counter() - start - 0.001)
        state["done"] = True

    t = threading.Thread(target=sleeper)
    t.start()
    spin(state)
    t.join()
    return delays


def row(name, delays):
    ms = [1000 * d for d in delays]
    return "%-7s median %7.2f ms   max %7.2f ms   (%d rounds)" % (
        name, statistics.median(ms), max(ms), len(ms))


def main():
    if len(sys.argv) > 1:
        sys.setswitchinterval(float(sys.argv[1]) / 1000)
    print("switch interval %.1f ms" % (1000 * sys.getswitchinterval()))
    print(row("signal", signal_latency()))
    print(row("gil", gil_latency()))
    try:
        import a64jit
    except ImportError:
        return
    s = a64jit.stats()
    if s.get("compiled", 0) > 0:
        print(json.dumps({k: s[k] for k in ("compiled", "failed", "entries", "breaker_calls",
                                            "other_thread_entries", "exec_mode")}))


main()
