"""torch.testing.assert_close on results computed twice: by torch and by plain Python."""
import math

import torch
from torch.testing import assert_close


def py_matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))]
            for i in range(len(a))]


def test_matmul_against_python_loops():
    torch.manual_seed(5)
    a, b = torch.randn(6, 5, dtype=torch.float64), torch.randn(5, 4, dtype=torch.float64)
    assert_close(a @ b, torch.tensor(py_matmul(a.tolist(), b.tolist()), dtype=torch.float64))


def test_softmax_against_python():
    xs = [0.5, -1.0, 2.0, 0.0]
    m = max(xs)
    exps = [math.exp(v - m) for v in xs]
    expected = [e / sum(exps) for e in exps]
    assert_close(torch.softmax(torch.tensor(xs, dtype=torch.float64), 0),
                 torch.tensor(expected, dtype=torch.float64))


def test_assert_close_reports_a_mismatch():
    try:
        assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.5]))
    except AssertionError as e:
        assert "Mismatched elements: 1 / 2" in str(e)
    else:
        raise AssertionError("assert_close accepted different tensors")


def test_cumulative_sums_and_sorting():
    values = [5, 3, 9, 1, 7]
    t = torch.tensor(values)
    running, acc = [], 0
    for v in values:
        acc += v
        running.append(acc)
    assert t.cumsum(0).tolist() == running
    sorted_t, order = t.sort(descending=True)
    assert sorted_t.tolist() == sorted(values, reverse=True)
    assert [values[i] for i in order.tolist()] == sorted(values, reverse=True)
