"""Float numerics: a softened gravitational system of point masses, stepped with a
leapfrog integrator. Written for a64jit's benchmark set. The check is physical: total
momentum stays zero (to rounding) and total energy drifts by less than 1e-6 relative.

Usage: float_nbody.py [STEPS] [ROUNDS] (bench.py).
"""
import math

import bench


def make_bodies(n):
    bodies = []
    for i in range(n):
        a = 2.0 * math.pi * i / n
        r = 1.0 + 0.25 * (i % 3)
        bodies.append([r * math.cos(a), r * math.sin(a), -0.3 * math.sin(a), 0.3 * math.cos(a),
                       1.0 + 0.1 * (i % 4)])
    px = sum(b[2] * b[4] for b in bodies)
    py = sum(b[3] * b[4] for b in bodies)
    mass = sum(b[4] for b in bodies)
    for b in bodies:  # no net momentum, so it must stay zero
        b[2] -= px / mass
        b[3] -= py / mass
    return bodies


def accelerations(bodies, soft):
    acc = [[0.0, 0.0] for _ in bodies]
    n = len(bodies)
    for i in range(n):
        xi, yi, _, _, mi = bodies[i]
        for j in range(i + 1, n):
            xj, yj, _, _, mj = bodies[j]
            dx = xj - xi
            dy = yj - yi
            d2 = dx * dx + dy * dy + soft
            inv = 1.0 / (d2 * math.sqrt(d2))
            acc[i][0] += dx * mj * inv
            acc[i][1] += dy * mj * inv
            acc[j][0] -= dx * mi * inv
            acc[j][1] -= dy * mi * inv
    return acc


def energy(bodies, soft):
    e = 0.0
    for i, (x, y, vx, vy, m) in enumerate(bodies):
        e += 0.5 * m * (vx * vx + vy * vy)
        for x2, y2, _, _, m2 in bodies[i + 1:]:
            e -= m * m2 / math.sqrt((x2 - x) ** 2 + (y2 - y) ** 2 + soft)
    return e


def simulate(steps, n=12, dt=0.001, soft=0.01):
    bodies = make_bodies(n)
    e0 = energy(bodies, soft)
    acc = accelerations(bodies, soft)
    for _ in range(steps):
        for b, a in zip(bodies, acc):
            b[2] += 0.5 * dt * a[0]
            b[3] += 0.5 * dt * a[1]
            b[0] += dt * b[2]
            b[1] += dt * b[3]
        acc = accelerations(bodies, soft)
        for b, a in zip(bodies, acc):
            b[2] += 0.5 * dt * a[0]
            b[3] += 0.5 * dt * a[1]
    px = sum(b[2] * b[4] for b in bodies)
    py = sum(b[3] * b[4] for b in bodies)
    return abs(px) + abs(py), abs(energy(bodies, soft) - e0) / abs(e0)


def check(steps, result):
    momentum, drift = result
    if momentum > 1e-9 or drift > 1e-8 * steps:
        return f"momentum {momentum}, energy drift {drift} after {steps} steps"
    return None


if __name__ == "__main__":
    bench.main("float_nbody", simulate, check, n=200, rounds=7)
