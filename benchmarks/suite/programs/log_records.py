"""Logging: a logger hierarchy with a formatter, a filter and two handlers writing to memory,
as an application logs while it works; most calls are below the level and cost only the
check."""
import io
import logging

import harness


class EvenOnly(logging.Filter):
    def filter(self, record):
        return record.args is None or not isinstance(record.args, tuple) or record.args[0] % 2 == 0


stream, errors = io.StringIO(), io.StringIO()
root = logging.getLogger("suite")
root.setLevel(logging.INFO)
root.propagate = False
handler = logging.StreamHandler(stream)
handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
handler.addFilter(EvenOnly())
root.addHandler(handler)
error_handler = logging.StreamHandler(errors)
error_handler.setLevel(logging.ERROR)
error_handler.setFormatter(logging.Formatter("%(name)s %(funcName)s %(message)s"))
root.addHandler(error_handler)
children = [logging.getLogger("suite.part%d" % i) for i in range(4)]


def workload():
    stream.seek(0)
    stream.truncate()
    errors.seek(0)
    errors.truncate()
    for i in range(200):
        log = children[i % 4]
        log.debug("ignored %d", i)
        log.info("step %d of %s", i, "work")
        if i % 25 == 0:
            log.error("failed %d", i)
    return stream.getvalue().count("\n"), errors.getvalue().count("\n")


def check(result):
    return None if result == (104, 8) else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("log_records", workload, check)
