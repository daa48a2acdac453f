"""Board search: alpha-beta over a small connect-four board, a transposition table keyed by
64-bit Zobrist hashes, many small methods."""
import random

import harness

COLS, ROWS = 5, 4
_rng = random.Random(7)
ZOBRIST = [[_rng.getrandbits(64) for _ in range(3)] for _ in range(COLS * ROWS)]


class Board:
    def __init__(self):
        self.cells = [0] * (COLS * ROWS)
        self.heights = [0] * COLS
        self.hash = 0

    def can_play(self, col):
        return self.heights[col] < ROWS

    def play(self, col, who):
        at = col * ROWS + self.heights[col]
        self.cells[at] = who
        self.heights[col] += 1
        self.hash ^= ZOBRIST[at][who]

    def undo(self, col, who):
        self.heights[col] -= 1
        at = col * ROWS + self.heights[col]
        self.cells[at] = 0
        self.hash ^= ZOBRIST[at][who]

    def cell(self, c, r):
        if 0 <= c < COLS and 0 <= r < ROWS:
            return self.cells[c * ROWS + r]
        return -1

    def wins(self, col, who):
        r = self.heights[col] - 1
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            n = 1
            for s in (1, -1):
                c, rr = col + dc * s, r + dr * s
                while self.cell(c, rr) == who:
                    n += 1
                    c, rr = c + dc * s, rr + dr * s
            if n >= 4:
                return True
        return False


class Searcher:
    def __init__(self):
        self.table = {}
        self.nodes = 0

    def search(self, board, who, depth, alpha, beta):
        self.nodes += 1
        key = (board.hash, who, depth)
        hit = self.table.get(key)
        if hit is not None:
            return hit
        best = -100
        for col in (2, 1, 3, 0, 4):
            if not board.can_play(col):
                continue
            board.play(col, who)
            if board.wins(col, who):
                score = 50 + depth
            elif depth == 0:
                score = 0
            else:
                score = -self.search(board, 3 - who, depth - 1, -beta, -alpha)
            board.undo(col, who)
            if score > best:
                best = score
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        self.table[key] = best
        return best


def workload():
    s = Searcher()
    b = Board()
    return s.search(b, 1, 9, -1000, 1000), s.nodes, len(s.table)


WANT = (0, 2763, 2057)


def check(result):
    return None if result == WANT else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("board_search", workload, check)
