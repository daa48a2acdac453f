"""Tensor indexing checked against the same computation on Python lists."""
import torch


def grid(rows, cols):
    return [[r * cols + c for c in range(cols)] for r in range(rows)]


def test_basic_slicing_matches_lists():
    g = grid(5, 7)
    t = torch.tensor(g)
    assert t[1:4, ::2].tolist() == [row[::2] for row in g[1:4]]
    assert t[-1].tolist() == g[-1]
    assert t[:, 3].tolist() == [row[3] for row in g]


def test_advanced_indexing_and_masks():
    g = grid(4, 4)
    t = torch.tensor(g)
    rows, cols = [0, 2, 3], [1, 1, 0]
    assert t[rows, cols].tolist() == [g[r][c] for r, c in zip(rows, cols)]
    mask = t % 3 == 0
    assert t[mask].tolist() == [v for row in g for v in row if v % 3 == 0]


def test_index_put_and_scatter_add():
    t = torch.zeros(6, dtype=torch.int64)
    t[torch.tensor([1, 4])] = torch.tensor([7, 9])
    assert t.tolist() == [0, 7, 0, 0, 9, 0]
    idx = torch.tensor([0, 1, 0, 2, 1, 0])
    out = torch.zeros(3, dtype=torch.int64).scatter_add_(0, idx, torch.arange(6))
    expected = [0, 0, 0]
    for i, v in zip(idx.tolist(), range(6)):
        expected[i] += v
    assert out.tolist() == expected


def test_gather_picks_per_row():
    t = torch.tensor(grid(3, 5))
    picks = torch.tensor([[4, 0], [2, 2], [1, 3]])
    assert t.gather(1, picks).tolist() == [[4, 0], [7, 7], [11, 13]]
