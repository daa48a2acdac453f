# Tracing and generators fall back to the interpreter: line events of a traced call are
# exactly the interpreter's, generators work, and functions called after tracing stops run
# compiled again.
# pydiff: min-compiled=2
import sys


def work(n):
    total = 0
    for i in range(n):
        total += i
    return total


def numbers(n):
    i = 0
    while i < n:
        yield i * i
        i += 1


def tracer(frame, event, arg):
    if frame.f_code.co_name == "work":
        lines.append((event, frame.f_lineno))
    return tracer


lines = []
print(work(3))
sys.settrace(tracer)
print(work(2))
sys.settrace(None)
print(lines)
print(list(numbers(5)), sum(numbers(10)))
print(work(4))
