"""The pytest plugin of //suites/pytorch (`-p a64jit_suite`).

It names, in the run's header, the machine and the torch the tests import, so a log shows
which side ran (the arm64 torch under QEMU, the amd64 one on the host, or another checkout's).

It runs one shard of a test file under Bazel's
test sharding protocol, so that a big PyTorch module is split across `--jobs` and a remote
pool: with $TEST_TOTAL_SHARDS = N and $TEST_SHARD_INDEX = K it keeps the collected tests
whose position in collection order is K modulo N, and touches $TEST_SHARD_STATUS_FILE to
tell Bazel that the test honours sharding. Collection order is the file's own, the same on
every shard, so the shards partition the file: every test runs in exactly one of them.
Without the variables it does nothing.
"""

import os
import platform
import sys


def pytest_report_header(config):
    try:
        import torch
        where = "torch %s from %s" % (torch.__version__, os.path.dirname(torch.__file__))
    except ImportError as e:
        where = "torch not importable: %s" % e
    return "a64jit_suite: %s, Python %s, %s" % (platform.machine(), sys.version.split()[0], where)


def shard_of(items, total, index):
    """(kept, dropped): the items at positions index, index + total, ..."""
    kept = [item for position, item in enumerate(items) if position % total == index]
    dropped = [item for position, item in enumerate(items) if position % total != index]
    return kept, dropped


def pytest_collection_modifyitems(config, items):
    total = int(os.environ.get("TEST_TOTAL_SHARDS", "0") or 0)
    if total <= 1:
        return
    index = int(os.environ.get("TEST_SHARD_INDEX", "0"))
    if not 0 <= index < total:
        raise ValueError("a64jit_suite: TEST_SHARD_INDEX=%d is outside 0..%d" % (index, total - 1))
    status = os.environ.get("TEST_SHARD_STATUS_FILE")
    if status:
        with open(status, "a"):
            pass
    kept, dropped = shard_of(items, total, index)
    items[:] = kept
    config.hook.pytest_deselected(items=dropped)
