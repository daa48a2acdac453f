"""Dict and string processing: a deterministic text of made-up words, split, normalised,
counted in dicts, indexed by first letter, and joined back; bigram counts; a
Caesar-shifted copy decoded again. Written for a64jit's benchmark set. Checked by
invariants: counts add up to the word total, the decoded text equals the original, and
the most frequent words are those the generator made most often.

Usage: text_dicts.py [WORDS] [ROUNDS] (bench.py).
"""
import bench

SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "po"]


def make_text(words):
    out = []
    state = 12345
    for i in range(words):
        state = (state * 1103515245 + 12345) % 2147483648
        length = 1 + state % 3
        word = "".join(SYLLABLES[(state >> (4 * k)) % 10] for k in range(length))
        out.append(word.upper() if i % 11 == 0 else word)
    return " ".join(out) + "."


def shift(text, k):
    return "".join(chr((ord(c) - 97 + k) % 26 + 97) if "a" <= c <= "z" else c for c in text)


def workload(words):
    text = make_text(words)
    tokens = [t.strip(".,").lower() for t in text.split()]
    counts = {}
    for t in tokens:
        counts[t] = counts.get(t, 0) + 1
    by_letter = {}
    for t in counts:
        by_letter.setdefault(t[0], []).append(t)
    bigrams = {}
    for a, b in zip(tokens, tokens[1:]):
        key = a + " " + b
        bigrams[key] = bigrams.get(key, 0) + 1
    decoded = shift(shift(text.lower(), 7), 19)
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    return len(tokens), sum(counts.values()), sum(len(v) for v in by_letter.values()), \
        len(counts), sum(bigrams.values()), decoded == text.lower(), top


def check(words, result):
    tokens, counted, indexed, distinct, bigrams, round_trip, top = result
    if not (tokens == counted == words and indexed == distinct and bigrams == words - 1 and
            round_trip and len(top) == 3 and top[0][1] >= top[2][1] > 1):
        return f"inconsistent counts {result}"
    return None


if __name__ == "__main__":
    bench.main("text_dicts", workload, check, n=20000, rounds=7)
