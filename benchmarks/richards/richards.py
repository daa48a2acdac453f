# pydiff: all-compiled
"""Richards: Martin Richards' operating-system simulation benchmark, written for a64jit.

Six tasks (an idle task, a worker, two handlers and two devices) pass packets through a
priority scheduler. A run of the standard configuration must end with exactly 9297 holds
and 23246 queued packets; anything else means the program was executed wrongly.

Usage: richards.py [iterations]   (prints the counts; exit status 1 on a wrong count)
"""

import sys

IDLE, WORKER, HANDLER_A, HANDLER_B, DEVICE_A, DEVICE_B = 1, 2, 3, 4, 5, 6
TASK_SLOTS = 10
KIND_DEVICE = 1000
KIND_WORK = 1001
DATA_SIZE = 4
EXPECTED_HOLDS = 9297
EXPECTED_QUEUED = 23246


class Packet:
    def __init__(self, link, ident, kind):
        self.link = link
        self.ident = ident
        self.kind = kind
        self.datum = 0
        self.data = [0] * DATA_SIZE

    def append_to(self, queue):
        self.link = None
        if queue is None:
            return self
        last = queue
        nxt = last.link
        while nxt is not None:
            last = nxt
            nxt = last.link
        last.link = self
        return queue


class DeviceState:
    def __init__(self):
        self.pending = None


class IdleState:
    def __init__(self):
        self.control = 1
        self.count = 10000


class HandlerState:
    def __init__(self):
        self.work_in = None
        self.device_in = None

    def add_work(self, packet):
        self.work_in = packet.append_to(self.work_in)
        return self.work_in

    def add_device(self, packet):
        self.device_in = packet.append_to(self.device_in)
        return self.device_in


class WorkerState:
    def __init__(self):
        self.destination = HANDLER_A
        self.count = 0


class Counters:
    def __init__(self):
        self.holds = 0
        self.queued = 0
        self.first = None
        self.table = [None] * TASK_SLOTS


counters = Counters()


class Task:
    def __init__(self, ident, priority, queue, pending, waiting, holding, state):
        self.link = counters.first
        self.ident = ident
        self.priority = priority
        self.input = queue
        self.packet_pending = pending
        self.waiting = waiting
        self.holding = holding
        self.state = state
        counters.first = self
        counters.table[ident] = self

    def blocked(self):
        return self.holding or (not self.packet_pending and self.waiting)

    def waiting_with_packet(self):
        return self.packet_pending and self.waiting and not self.holding

    def run(self):
        if self.waiting_with_packet():
            packet = self.input
            self.input = packet.link
            if self.input is None:
                self.packet_pending = False
                self.waiting = False
                self.holding = False
            else:
                self.packet_pending = True
                self.waiting = False
                self.holding = False
        else:
            packet = None
        return self.step(packet, self.state)

    def wait(self):
        self.waiting = True
        return self

    def hold(self):
        counters.holds += 1
        self.holding = True
        return self.link

    def release(self, ident):
        other = find_task(ident)
        other.holding = False
        if other.priority > self.priority:
            return other
        return self

    def queue_packet(self, packet):
        target = find_task(packet.ident)
        counters.queued += 1
        packet.link = None
        packet.ident = self.ident
        return target.receive(packet, self)

    def receive(self, packet, sender):
        if self.input is None:
            self.input = packet
            self.packet_pending = True
            if self.priority > sender.priority:
                return self
        else:
            packet.append_to(self.input)
        return sender


class DeviceTask(Task):
    def step(self, packet, state):
        if packet is None:
            packet = state.pending
            if packet is None:
                return self.wait()
            state.pending = None
            return self.queue_packet(packet)
        state.pending = packet
        return self.hold()


class HandlerTask(Task):
    def step(self, packet, state):
        if packet is not None:
            if packet.kind == KIND_WORK:
                state.add_work(packet)
            else:
                state.add_device(packet)
        work = state.work_in
        if work is None:
            return self.wait()
        count = work.datum
        if count >= DATA_SIZE:
            state.work_in = work.link
            return self.queue_packet(work)
        device = state.device_in
        if device is None:
            return self.wait()
        state.device_in = device.link
        device.datum = work.data[count]
        work.datum = count + 1
        return self.queue_packet(device)


class IdleTask(Task):
    def step(self, packet, state):
        state.count -= 1
        if state.count == 0:
            return self.hold()
        if state.control & 1 == 0:
            state.control //= 2
            return self.release(DEVICE_A)
        state.control = (state.control // 2) ^ 0xD008
        return self.release(DEVICE_B)


class WorkerTask(Task):
    def step(self, packet, state):
        if packet is None:
            return self.wait()
        if state.destination == HANDLER_A:
            destination = HANDLER_B
        else:
            destination = HANDLER_A
        state.destination = destination
        packet.ident = destination
        packet.datum = 0
        i = 0
        while i < DATA_SIZE:
            state.count += 1
            if state.count > 26:
                state.count = 1
            packet.data[i] = 64 + state.count
            i += 1
        return self.queue_packet(packet)


def find_task(ident):
    task = counters.table[ident]
    if task is None:
        raise ValueError("no task " + str(ident))
    return task


def setup():
    counters.holds = 0
    counters.queued = 0
    counters.first = None
    counters.table = [None] * TASK_SLOTS
    IdleTask(IDLE, 1, None, False, False, False, IdleState())
    work = Packet(None, 0, KIND_WORK)
    work = Packet(work, 0, KIND_WORK)
    WorkerTask(WORKER, 1000, work, True, True, False, WorkerState())
    for handler, device in ((HANDLER_A, DEVICE_A), (HANDLER_B, DEVICE_B)):
        queue = Packet(None, device, KIND_DEVICE)
        queue = Packet(queue, device, KIND_DEVICE)
        queue = Packet(queue, device, KIND_DEVICE)
        HandlerTask(handler, 1000 * handler - 1000, queue, True, True, False, HandlerState())
    DeviceTask(DEVICE_A, 4000, None, False, True, False, DeviceState())
    DeviceTask(DEVICE_B, 5000, None, False, True, False, DeviceState())


def schedule():
    task = counters.first
    while task is not None:
        if task.blocked():
            task = task.link
        else:
            task = task.run()


def run(iterations):
    ok = True
    for _ in range(iterations):
        setup()
        schedule()
        ok = ok and counters.holds == EXPECTED_HOLDS and counters.queued == EXPECTED_QUEUED
    return ok


def main(argv):
    iterations = int(argv[1]) if len(argv) > 1 else 1
    ok = run(iterations)
    print("richards: %d iterations, holds %d, queued %d: %s" %
          (iterations, counters.holds, counters.queued, "ok" if ok else "WRONG"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
