"""Particles: small float objects with `__slots__` (vectors, particles, a bounding box) moved
by many short methods, as a simulation or geometry library written for speed keeps its
objects: every attribute a slot, read and written through the type's member descriptors."""
import math

import harness


class Vec:
    __slots__ = ("x", "y", "z")

    def __init__(self, x, y, z):
        self.x = x
        self.y = y
        self.z = z

    def __add__(self, other):
        return Vec(self.x + other.x, self.y + other.y, self.z + other.z)

    def __sub__(self, other):
        return Vec(self.x - other.x, self.y - other.y, self.z - other.z)

    def scaled(self, k):
        return Vec(self.x * k, self.y * k, self.z * k)

    def dot(self, other):
        return self.x * other.x + self.y * other.y + self.z * other.z

    def length(self):
        return math.sqrt(self.dot(self))

    def normalise(self):
        n = self.length()
        if n > 0.0:
            self.x /= n
            self.y /= n
            self.z /= n
        return self


class Particle:
    __slots__ = ("pos", "vel", "mass", "bounces")

    def __init__(self, pos, vel, mass):
        self.pos = pos
        self.vel = vel
        self.mass = mass
        self.bounces = 0

    def step(self, dt, gravity):
        self.vel = self.vel + gravity.scaled(dt)
        self.pos = self.pos + self.vel.scaled(dt)

    def energy(self):
        return 0.5 * self.mass * self.vel.dot(self.vel)


class Box:
    __slots__ = ("lo", "hi")

    def __init__(self, lo, hi):
        self.lo = lo
        self.hi = hi

    def reflect(self, p):
        pos, vel = p.pos, p.vel
        if pos.z < self.lo.z:  # the floor, the usual bounce
            pos.z = self.lo.z
            vel.z = -vel.z * 0.8
            p.bounces += 1
        for axis in ("x", "y"):
            low, high = getattr(self.lo, axis), getattr(self.hi, axis)
            v = getattr(pos, axis)
            if v < low or v > high:
                setattr(vel, axis, -getattr(vel, axis) * 0.9)
                setattr(pos, axis, min(max(v, low), high))
                p.bounces += 1


def make_particles(n):
    out = []
    for i in range(n):
        angle = i * 0.7
        pos = Vec(math.cos(angle) * 3.0, math.sin(angle) * 3.0, 5.0 + (i % 7) * 0.5)
        vel = Vec(math.sin(angle * 1.3), math.cos(angle * 0.4), (i % 5) - 2.0)
        out.append(Particle(pos, vel, 1.0 + (i % 3)))
    return out


def workload():
    particles = make_particles(60)
    box = Box(Vec(-3.2, -3.2, 0.0), Vec(3.2, 3.2, 10.0))
    gravity = Vec(0.0, 0.0, -9.81)
    for _ in range(60):
        for p in particles:
            p.step(0.02, gravity)
            box.reflect(p)
    centre = Vec(0.0, 0.0, 0.0)
    for p in particles:
        centre = centre + p.pos
    centre = centre.scaled(1.0 / len(particles))
    direction = (particles[0].pos - centre).normalise()
    energy = sum(p.energy() for p in particles)
    bounces = sum(p.bounces for p in particles)
    return round(energy, 6), bounces, round(direction.length(), 9), round(centre.z, 6)


WANT = (4708.462705, 59, 1.0, 1.226437)


def check(result):
    return None if result == WANT else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("particles", workload, check, calls=30)
