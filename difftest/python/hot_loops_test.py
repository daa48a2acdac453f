"""A program for hot_loops_test.sh: at threshold 100, none of these functions is called
often enough to compile by its calls. `count_primes` runs a long loop in each of its three
calls, so its interpreted time (Config::hot_loop_us) makes it compile at its second call;
`short_loop` has a loop that takes microseconds, and `no_loop` spends its time in C
(sorting) without a loop of its own: neither may compile. Prints what each returned."""


def count_primes(limit):
    n = 0
    for i in range(2, limit):
        j = 2
        while j * j <= i:
            if i % j == 0:
                break
            j += 1
        else:
            n += 1
    return n


def short_loop(xs):
    t = 0
    for x in xs:
        t += x
    return t


def no_loop(xs):
    return sorted(xs, reverse=True)[0]


big = list(range(100000))
for _ in range(3):
    print(count_primes(20000), short_loop([1, 2, 3]), no_loop(big))
