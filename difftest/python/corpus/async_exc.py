# pydiff: all-compiled
# pydiff: min-breaker_calls=1
# pydiff: min-other_thread_entries=1
# PyThreadState_SetAsyncExc (through ctypes) raises in a thread running a compiled loop: the
# exception arrives at the loop's next check, the loop's handler catches it, and the thread
# goes on. The main thread waits until the loop's counter has moved on after the event, so
# the worker has left threading's Event.set and the exception cannot be taken at a check
# in threading's code instead (a race the aarch64 gate once lost: breaker_calls 0).
import ctypes
import threading
import time


class Stop(Exception):
    pass


def loop_until_stopped(state):
    n = 0
    give_up = time.monotonic() + 20
    try:
        while True:
            n += 1
            state["n"] = n
            if n == 1000:
                state["looping"].set()
            if n % 4096 == 0 and time.monotonic() > give_up:
                state["result"] = "never stopped"
                return
    except Stop:
        state["result"] = "stopped by an asynchronous Stop"


def run():
    state = {"looping": threading.Event(), "result": None, "n": 0}
    worker = threading.Thread(target=loop_until_stopped, args=(state,))
    worker.start()
    state["looping"].wait()
    seen = state["n"]
    while state["n"] < seen + 10000:
        time.sleep(0.001)
    set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
    set_async_exc.argtypes = (ctypes.c_ulong, ctypes.py_object)
    print("threads affected:", set_async_exc(worker.ident, Stop))
    worker.join()
    print(state["result"])


run()
