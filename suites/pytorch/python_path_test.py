#!/usr/bin/python3.11
"""suites/pytorch/python: the expecttest stand-in and the shard plugin.

expecttest: a matching text passes; a differing one, a non-str, and a callable that does not
raise or raises another message fail. a64jit_suite: the shards of any size partition the
tests in order, and a pytest run names the machine and torch in its header, of a made-up file under the sharding variables keeps its
shard, touches the status file, and counts the rest as deselected.
"""
import os
import platform
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "python")
sys.path.insert(0, HERE)
import a64jit_suite  # noqa: E402
import expecttest  # noqa: E402


class Sample(expecttest.TestCase):
    def runTest(self):
        pass


class ExpecttestTest(unittest.TestCase):
    def test_equal_text_passes(self):
        Sample().assertExpectedInline("a\nb", """a\nb""")

    def test_different_text_fails(self):
        with self.assertRaises(AssertionError):
            Sample().assertExpectedInline("a\nb", "a\nc")
        with self.assertRaises(AssertionError):
            Sample().assertExpectedInline("a", "a ")

    def test_non_string_is_an_error(self):
        with self.assertRaises(TypeError):
            Sample().assertExpectedInline(1, "1")

    def test_raises_inline(self):
        def boom(x):
            raise ValueError("bad %d" % x)
        Sample().assertExpectedRaisesInline(ValueError, boom, "bad 3", 3)
        with self.assertRaises(AssertionError):
            Sample().assertExpectedRaisesInline(ValueError, boom, "bad 4", 3)
        with self.assertRaises(AssertionError):
            Sample().assertExpectedRaisesInline(ValueError, lambda: None, "")
        with self.assertRaises(KeyError):  # another type propagates
            Sample().assertExpectedRaisesInline(ValueError, lambda: {}["k"], "")

    def test_accept_comes_from_the_environment(self):
        code = "import expecttest; print(expecttest.ACCEPT)"
        for value, want in (("1", "True"), ("0", "False"), ("", "False")):
            env = dict(os.environ, PYTHONPATH=HERE, EXPECTTEST_ACCEPT=value)
            out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                                 text=True, check=True).stdout.strip()
            self.assertEqual(out, want, value)


class ShardTest(unittest.TestCase):
    def test_shards_partition_in_order(self):
        items = list(range(23))
        for total in (1, 2, 5, 8, 30):
            seen = []
            for index in range(total):
                kept, dropped = a64jit_suite.shard_of(items, total, index)
                self.assertEqual(sorted(kept + dropped), items)
                self.assertEqual(kept, sorted(kept))
                seen += kept
            self.assertEqual(sorted(seen), items, total)

    def test_pytest_runs_its_shard(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "test_many.py"), "w") as f:
                f.write("".join("def test_%02d():\n    pass\n" % i for i in range(10)))
            status = os.path.join(tmp, "status")
            env = dict(os.environ, PYTHONPATH=HERE, TEST_TOTAL_SHARDS="3", TEST_SHARD_INDEX="1",
                       TEST_SHARD_STATUS_FILE=status)
            run = subprocess.run(
                [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "a64jit_suite",
                 "-v", "test_many.py"], cwd=tmp, env=env, capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            ran = sorted(line.split("::")[1].split()[0] for line in run.stdout.splitlines()
                         if "PASSED" in line)
            self.assertEqual(ran, ["test_01", "test_04", "test_07"])
            self.assertIn("7 deselected", run.stdout)
            self.assertIn("a64jit_suite: %s, Python " % platform.machine(), run.stdout)
            self.assertTrue(os.path.exists(status))
            env["TEST_SHARD_INDEX"] = "3"
            bad = subprocess.run([sys.executable, "-m", "pytest", "-p", "a64jit_suite",
                                  "test_many.py"], cwd=tmp, env=env, capture_output=True,
                                 text=True)
            self.assertNotEqual(bad.returncode, 0)
            self.assertIn("TEST_SHARD_INDEX=3", bad.stdout + bad.stderr)


if __name__ == "__main__":
    unittest.main()
