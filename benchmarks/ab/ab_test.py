"""ab.py's statistics and its interleaving, on synthetic data and fake commands."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ab  # noqa: E402


class StatisticsTest(unittest.TestCase):
    def test_trimmed_mean_drops_outliers(self):
        self.assertAlmostEqual(ab.trimmed_mean([1, 2, 3, 4, 5, 6, 7, 8, 9, 1000]), 5.5)

    def test_ratio_and_interval(self):
        a = [20.0 + 0.1 * i for i in range(10)]
        b = [10.0 + 0.05 * i for i in range(10)]
        s = ab.summarise(a, b)
        self.assertAlmostEqual(s["ratio_of_medians"], 20.45 / 10.225)
        lo, hi = s["ratio_ci95"]
        self.assertLessEqual(lo, s["ratio_of_medians"])
        self.assertGreaterEqual(hi, s["ratio_of_medians"])
        self.assertGreater(lo, 1.9)
        self.assertLess(hi, 2.1)

    def test_overlapping_samples_give_an_interval_across_one(self):
        a = [10, 12, 9, 11, 10, 13, 8, 10, 11, 12]
        b = [11, 10, 12, 9, 10, 11, 13, 9, 10, 12]
        lo, hi = ab.summarise(a, b)["ratio_ci95"]
        self.assertLess(lo, 1.0)
        self.assertGreater(hi, 1.0)


class CommandTest(unittest.TestCase):
    def test_runs_interleave_and_metrics_parse(self):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "order")
            cmd = "sh -c 'echo %s >> " + log + "; echo time=%s'"
            sys.argv = ["ab.py", "--a", cmd % ("A", "4"), "--b", cmd % ("B", "2"), "--runs", "3",
                        "--metric", r"regex:time=(\d+)", "--json", os.path.join(d, "s.json")]
            self.assertEqual(ab.main(), 0)
            with open(log) as f:
                self.assertEqual(f.read().split(), ["A", "B", "A", "B", "A", "B"])

    def test_gbench_json(self):
        cmd = ("sh -c 'echo \"{\\\"benchmarks\\\": [{\\\"name\\\": \\\"x\\\", "
               "\\\"real_time\\\": 2500, \\\"time_unit\\\": \\\"us\\\"}]}\"'")
        self.assertAlmostEqual(ab.measure(cmd, "gbench:x"), 2.5)

    def test_failing_command_is_reported(self):
        with self.assertRaises(RuntimeError):
            ab.measure("sh -c 'exit 3'", "wall")


if __name__ == "__main__":
    unittest.main()
