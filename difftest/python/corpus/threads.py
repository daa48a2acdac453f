# pydiff: all-compiled
# pydiff: min-other_thread_entries=1
# Threads run compiled code: two and eight threads adding to a shared counter under a lock
# (the exact total), a compiled producer feeding a consumer thread through queue.Queue, and
# a ticking thread that gets the GIL while the main thread runs a compiled loop (compiled
# code hands the GIL over at its loop checks, at the switch interval).
import queue
import sys
import threading
import time

counter = 0
lock = threading.Lock()


def add_many(times):
    global counter
    for _ in range(times):
        with lock:
            counter += 1


def run_threads(count, times):
    global counter
    counter = 0
    threads = [threading.Thread(target=add_many, args=(times,)) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return counter


def produce(q, n):
    for i in range(n):
        q.put(i * i)
    q.put(None)


def consume(q, out):
    total = 0
    while True:
        item = q.get()
        if item is None:
            break
        total += item
    out.append(total)


def producer_consumer(n):
    q = queue.Queue(maxsize=16)
    out = []
    consumer = threading.Thread(target=consume, args=(q, out))
    consumer.start()
    produce(q, n)
    consumer.join()
    return out[0]


def tick(state):
    while not state["stop"]:
        state["ticks"] += 1
        time.sleep(0.001)


def busy_loop(seconds):
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        n += 1
    return n


def ticks_during_busy_loop(seconds):
    state = {"stop": False, "ticks": 0}
    ticker = threading.Thread(target=tick, args=(state,))
    ticker.start()
    busy_loop(seconds)
    state["stop"] = True
    ticker.join()
    # Stock gives the ticker the GIL about every switch interval (5 ms): some 40 ticks.
    return state["ticks"] >= 10


sys.setswitchinterval(0.005)
print("2 threads:", run_threads(2, 2000))
print("8 threads:", run_threads(8, 500))
print("queue:", producer_consumer(300))
print("ticker ran while the main thread looped:", ticks_during_busy_loop(0.4))
