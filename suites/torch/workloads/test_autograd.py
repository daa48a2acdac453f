"""Autograd against derivatives worked out by hand, custom Functions, and higher order."""
import math

import torch


def test_polynomial_gradient_matches_the_derivative():
    xs = [-2.0, -0.5, 0.0, 1.0, 3.0]
    x = torch.tensor(xs, requires_grad=True)
    y = (x**3 - 2 * x**2 + 5 * x).sum()
    y.backward()
    expected = [3 * v * v - 4 * v + 5 for v in xs]
    assert x.grad.tolist() == expected


def test_second_derivative_through_create_graph():
    x = torch.tensor(0.7, requires_grad=True, dtype=torch.float64)
    y = torch.sin(x) * x
    (dy,) = torch.autograd.grad(y, x, create_graph=True)
    (d2y,) = torch.autograd.grad(dy, x)
    v = 0.7
    assert math.isclose(dy.item(), math.cos(v) * v + math.sin(v), rel_tol=1e-12)
    assert math.isclose(d2y.item(), 2 * math.cos(v) - v * math.sin(v), rel_tol=1e-12)


class Clamp01(torch.autograd.Function):
    """A clamp whose backward passes the gradient straight through (written here)."""

    @staticmethod
    def forward(ctx, x):
        return x.clamp(0, 1)

    @staticmethod
    def backward(ctx, grad):
        return grad


def test_custom_function_straight_through():
    x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
    y = Clamp01.apply(x)
    assert y.tolist() == [0.0, 0.5, 1.0]
    (y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert x.grad.tolist() == [1.0, 2.0, 3.0]


def test_gradcheck_on_a_composite():
    def f(a, b):
        return (a @ b).tanh().sum(dim=0) * a.sum()

    a = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    b = torch.randn(4, 2, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(f, (a, b))


def test_hooks_see_and_scale_gradients():
    seen = []
    x = torch.ones(3, requires_grad=True)
    x.register_hook(lambda g: seen.append(g.clone()) or g * 10)
    (x * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert seen[0].tolist() == [1.0, 2.0, 3.0]
    assert x.grad.tolist() == [10.0, 20.0, 30.0]
