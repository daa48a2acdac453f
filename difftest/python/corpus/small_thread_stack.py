# A thread made with a 256 KiB stack recursing 20,000 deep, then to its limit: stock needs no
# C stack for it; under the JIT the frames run on the thread's own JIT stack.
# pydiff: threshold=0,100
import sys
import threading

sys.setrecursionlimit(100000)


def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)


def forever(n):
    return forever(n + 1)


results = []


def work():
    results.append(depth(20000))
    try:
        forever(0)
    except RecursionError as e:
        results.append(str(e))


threading.stack_size(256 * 1024)
worker = threading.Thread(target=work)
worker.start()
worker.join()
print(results)
