"""A small PyTorch training loop (python3-torch 1.13, CPU): the real-code workload whose
compiled share issue 13 measures. A two-layer network on synthetic data, through
torch.utils.data (datasets, samplers and loaders are generators and closures), nn.Module
hooks, an optimizer with a learning-rate scheduler, autograd, and a state_dict round trip.
Deterministic: prints the loss every 10 steps and a checksum of the final weights.
"""
import sys

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self, d_in, d_hidden, d_out):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(d_in, d_hidden), nn.ReLU(),
                                    nn.Linear(d_hidden, d_out))

    def forward(self, x):
        return self.layers(x)


def make_data(n, d_in, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d_in, generator=g)
    w = torch.randn(d_in, 1, generator=g)
    y = x @ w + 0.1 * torch.randn(n, 1, generator=g)
    return TensorDataset(x, y)


def train(steps):
    torch.manual_seed(0)
    data = make_data(512, 8, seed=1)
    loader = DataLoader(data, batch_size=32, shuffle=True)
    model = Net(8, 16, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
    loss_fn = nn.MSELoss()
    step = 0
    while step < steps:
        for x, y in loader:
            opt.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            if step % 10 == 0:
                print(f"step {step} loss {loss.item():.4f}")
            if step == steps:
                break
    state = {k: v.clone() for k, v in model.state_dict().items()}
    model.load_state_dict(state)
    print("checksum", round(sum(float(v.sum()) for v in state.values()), 3))


if __name__ == "__main__":
    train(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
