"""nn modules: shapes, state_dict round trips, Python forward hooks, custom modules."""
import io

import torch
from torch import nn


class Residual(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(width, width), nn.ReLU(), nn.Linear(width, width))

    def forward(self, x):
        return x + self.body(x)


def test_conv_stack_shapes_and_parameter_count():
    net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                        nn.MaxPool2d(2), nn.Flatten(), nn.Linear(8 * 4 * 4, 10))
    out = net(torch.randn(5, 3, 8, 8))
    assert out.shape == (5, 10)
    expected = (3 * 8 * 9 + 8) + (8 + 8) + (8 * 16 * 10 + 10)
    assert sum(p.numel() for p in net.parameters()) == expected


def test_state_dict_round_trip_gives_the_same_outputs():
    torch.manual_seed(3)
    a, b = Residual(6), Residual(6)
    buf = io.BytesIO()
    torch.save(a.state_dict(), buf)
    buf.seek(0)
    b.load_state_dict(torch.load(buf))
    x = torch.randn(4, 6)
    assert torch.equal(a(x), b(x))


def test_forward_hooks_run_in_order_and_can_rewrite_output():
    calls = []
    layer = nn.Linear(2, 2)
    nn.init.eye_(layer.weight)
    nn.init.zeros_(layer.bias)
    layer.register_forward_pre_hook(lambda m, args: calls.append("pre"))
    layer.register_forward_hook(lambda m, args, out: calls.append("post") or out * 2)
    out = layer(torch.tensor([[1.0, -1.0]]))
    assert calls == ["pre", "post"]
    assert out.tolist() == [[2.0, -2.0]]


def test_train_and_eval_modes_differ_for_dropout():
    torch.manual_seed(4)
    drop = nn.Dropout(p=0.5)
    x = torch.ones(1000)
    drop.train()
    zeros = int((drop(x) == 0).sum())
    assert 400 < zeros < 600
    drop.eval()
    assert torch.equal(drop(x), x)


def test_named_modules_walk():
    net = nn.Sequential(Residual(2), nn.Linear(2, 1))
    names = [n for n, _ in net.named_modules()]
    assert names == ["", "0", "0.body", "0.body.0", "0.body.1", "0.body.2", "1"]
