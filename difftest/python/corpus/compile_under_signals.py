# A timer signal every 200 microseconds while hundreds of functions are compiled: the C-level
# handler interrupts the compiler anywhere (its allocations, mmap and mprotect of code memory),
# and the Python handler runs at the next eval-breaker check, in compiled code or not.
# pydiff: min-compiled=1
import signal

ticks = 0


def on_tick(signum, frame):
    global ticks
    ticks += 1


def make(k):
    namespace = {}
    exec("def f%d(x):\n    return [x * %d + i for i in range(4)] + [sum(range(x))]\n" % (k, k),
         namespace)
    return namespace["f%d" % k]


def main():
    total = 0
    for k in range(300):
        total += sum(make(k)(k % 7))
    return total


signal.signal(signal.SIGALRM, on_tick)
signal.setitimer(signal.ITIMER_REAL, 0.0002, 0.0002)
try:
    print(main())
finally:
    signal.setitimer(signal.ITIMER_REAL, 0, 0)
print(ticks > 0)
