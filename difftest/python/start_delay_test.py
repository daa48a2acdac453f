"""The programs of start_delay_test.sh: `start_delay_test.py CASE` prints one line of facts."""
import os
import sys
import threading
import time

import a64jit


def f(x):
    return x + 1


def busy(seconds):
    """Calls f for `seconds` of wall time; past any start delay the test uses."""
    start, n = time.time(), 0
    while time.time() - start < seconds:
        for _ in range(200):
            n = f(n)
    return n


def facts(label):
    s = a64jit.stats()
    print(label, "hooked=%d" % (s["hook_started_ms"] >= 0), "compiled=%d" % a64jit.is_jit_compiled(f),
          "delay=%d" % s["start_delay_ms"], flush=True)


case = sys.argv[1]
if case == "short":  # the engine (executor, stubs, code memory) waits for the hook too
    facts("short engine=%d" % (a64jit.stats()["code_memory_reserved"] > 0))
elif case == "long":
    busy(1.0)
    facts("long off_gil=%d" % a64jit.stats()["engine_off_gil"])
elif case == "fork":  # forked before the delay ends: the child waits out the rest itself
    pid = os.fork()
    busy(1.0)
    facts("child" if pid == 0 else "parent")
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
elif case == "thread":  # the main thread blocked in join: the waker takes the GIL itself
    worker = threading.Thread(target=busy, args=(1.0,))
    worker.start()
    worker.join()
    facts("thread other_thread_entries=%d" % (a64jit.stats()["other_thread_entries"] > 0))
elif case == "idle":  # the automatic delay is CPU time: sleeping does not use it up
    delay = a64jit.stats()["start_delay_ms"] / 1000
    time.sleep(2 * delay + 0.3)
    facts("idle")
    busy(2 * delay + 0.3)
    facts("busy")
elif case == "disable":
    a64jit.disable()
    time.sleep(1.5)  # past the 1000 ms delay the test gives: a hook would be in by then
    facts("disabled enabled=%d" % a64jit.is_enabled())
elif case == "enable":  # a program switching the JIT on itself: the hook at once
    a64jit.disable()
    a64jit.enable()
    s = a64jit.stats()
    facts("enable started_ms=%d off_gil=%d" % (s["hook_started_ms"], s["engine_off_gil"]))
