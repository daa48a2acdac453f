# pydiff: threshold=auto
# pydiff: jit-args=--start-delay=200
# pydiff: min-early_entries=1
# pydiff: min-loop_entries=1
# The tiering policy's entry into an early frame (jit/python/early_frames.h), without help from
# the program: `work` starts before the hook goes in (200 ms after the start), so the
# interpreter runs it inside the module's own loop. The start delay's thread, ticking once the
# hook is in, asks the main thread for a look; the look finds `work` at its loop header, the
# policy finds it hot, and the rest of the call runs compiled. The loop stops once that
# happened (or after 60 seconds, so that a broken look shows as a failed statistic rather than
# a hang): the printed result does not depend on when. Then `later`, called once through the
# hook, must still get its loop entry (loop_entry.h) from the same thread's looks.
import time

try:
    import a64jit
except ImportError:  # plain python3.11, which the corpus test runs too
    a64jit = None
if a64jit is not None and not a64jit.is_enabled():  # the reference run, --no-jit
    a64jit = None


def entered(kind):
    return a64jit is None or a64jit.stats()[kind] > 0


def work():
    total = 0
    i = 0
    deadline = time.monotonic() + 60
    while True:
        total += i % 7
        i += 1
        if i % 1000 == 0 and (entered("early_entries") or time.monotonic() > deadline):
            break
    return total > 0, i % 1000


def later():
    total = 0
    i = 0
    deadline = time.monotonic() + 60
    while True:
        total += i % 5
        i += 1
        if i % 1000 == 0 and (entered("loop_entries") or time.monotonic() > deadline):
            break
    return total > 0, i % 1000


print(work())
print(later())
