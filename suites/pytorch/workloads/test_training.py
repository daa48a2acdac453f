"""Training loops that must converge: the optimiser steps, the loss closures and the data
loading are Python the JIT compiles; the results are checked, not just run."""
import torch
from torch.utils.data import DataLoader, TensorDataset


def make_line_data(n=256, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, 1, generator=g) * 4 - 2
    y = 3.0 * x - 0.5 + 0.01 * torch.randn(n, 1, generator=g)
    return x, y


def test_sgd_fits_a_line():
    torch.manual_seed(1)
    x, y = make_line_data()
    model = torch.nn.Linear(1, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(200):
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    assert abs(model.weight.item() - 3.0) < 0.05
    assert abs(model.bias.item() + 0.5) < 0.05
    assert loss.item() < 1e-3


def test_adam_learns_xor_with_minibatches():
    torch.manual_seed(2)
    x = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]).repeat(8, 1)
    y = (x[:, 0] != x[:, 1]).long()
    loader = DataLoader(TensorDataset(x, y), batch_size=8, shuffle=True)
    model = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2))
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    losses = []
    for _ in range(60):
        epoch = 0.0
        for xb, yb in loader:
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(xb), yb)
            loss.backward()
            opt.step()
            epoch += loss.item()
        losses.append(epoch)
    assert losses[-1] < losses[0] / 10
    assert torch.equal(model(x).argmax(dim=1), y)


def test_lbfgs_closure_minimises_rosenbrock():
    p = torch.tensor([-1.5, 2.0], requires_grad=True)
    opt = torch.optim.LBFGS([p], lr=1, max_iter=200, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2
        loss.backward()
        return loss

    opt.step(closure)
    torch.testing.assert_close(p.detach(), torch.tensor([1.0, 1.0]), atol=1e-3, rtol=0)


def test_lr_scheduler_sequence():
    model = torch.nn.Linear(2, 2)
    opt = torch.optim.SGD(model.parameters(), lr=1.0)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    seen = []
    for _ in range(6):
        seen.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    assert seen == [1.0, 1.0, 0.5, 0.5, 0.25, 0.25]
