# pydiff: threshold=auto
# pydiff: jit-args=--start-delay=1
# pydiff: min-loop_entries=1
# The tiering policy's own loop entry (jit/python/loop_entry.h), without help from the
# program: the start delay's thread, ticking every 20 ms once the hook is in (1 ms here),
# finds the one call of `work` still interpreting its loop, asks the main thread through a
# pending call, and the frame goes on in compiled code. The loop stops once the frame has
# entered compiled code (or after 30 seconds, so that a broken ticker shows as a failed
# statistic rather than a hang): the printed result does not depend on when that happened.
import time

try:
    import a64jit
except ImportError:  # plain python3.11, which the corpus test runs too
    a64jit = None
if a64jit is not None and not a64jit.is_enabled():  # the reference run, --no-jit
    a64jit = None


def entered():
    return a64jit is None or a64jit.stats()["loop_entries"] > 0


def work():
    total = 0
    i = 0
    deadline = time.monotonic() + 30
    while True:
        total += i % 7
        i += 1
        if i % 1000 == 0 and (entered() or time.monotonic() > deadline):
            break
    return total > 0, i % 1000


# `work` is to begin after the hook went in, as a timed run of the hook's (a frame that began
# before is an early frame: early_frame_policy.py): wait for the hook (sleeping releases the
# GIL the start delay's thread needs).
while a64jit is not None and a64jit.stats()["hook_started_ms"] < 0:
    time.sleep(0.01)
print(work())
