"""Real suites as Bazel tests: one target per module (or test file) and side.

`suite_module(name, kind, test)` defines `<name>_stock` and `<name>_jit`, both running
suites/suite_test.sh. Bazel's --jobs, its caching and a remote-execution pool then run a
suite's modules in parallel; suites/collect.py gathers their testlogs for junit_compare.
"""

load("//platforms:defs.bzl", "exec_properties")

def suite_module(name, kind, test, args = [], data = [], timeout = "long", tags = [],
                 shard_count = 1):
    """Two sh_tests: the module stock and with the JIT.

    Args:
      name: the target prefix (a module name, or a test file's stem).
      kind: "regrtest" (CPython's -m test) or "pytest".
      test: what the test command is given: a regrtest module, or a test file's path.
      args: suite_test.sh options (--ignore=, --qemu-ignore=, --host-only=REASON) and extra
        arguments for every test process.
      data: files the test needs (a pytest file written here).
      timeout: Bazel's test timeout; runner.py stops the process 30 s before it.
      tags: extra tags.
      shard_count: Bazel test shards; the test script runs shard TEST_SHARD_INDEX of
        TEST_TOTAL_SHARDS (pytest kinds: suites/pytorch/python/a64jit_suite.py).
    """
    for side in ("stock", "jit"):
        native.sh_test(
            name = "%s_%s" % (name, side),
            srcs = ["//suites:suite_test.sh"],
            args = [
                kind,
                side,
                test,
                "$(rootpath //difftest/junit:runner.py)",
                "$(rootpath //jit/python:a64jit-run)",
            ] + args,
            data = [
                "//ci:skip_test.sh",
                "//difftest/junit:runner.py",
                "//jit/python:a64jit-run",
            ] + data,
            size = "large",
            timeout = timeout,
            shard_count = shard_count,
            # What a Remote Execution pool matches to pick a worker: an ARM host when the
            # target platform is aarch64 (//platforms).
            exec_properties = exec_properties(),
            # Outside the sandbox, as regrtest and pytest normally run: the sandbox mounts
            # /usr read-only, where unlinking a file that does not exist fails with EROFS
            # instead of ENOENT (test_bdb's clean-up unlinks such files on sys.path).
            tags = ["suite", side, "no-sandbox"] + tags,
        )
