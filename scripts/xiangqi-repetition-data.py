#!/usr/bin/env python3
"""Reference verdicts for xiangqi's repetition rules and move limit, from
Fairy-Stockfish (pyffish), for crates/rules/tests/xiangqi_repetition.rs.

Run from the repository root:

    python3 scripts/xiangqi-repetition-data.py

It makes a virtual environment under /tmp/qipan-pyffish (once), installs
the pinned pyffish there, re-runs itself inside it, and writes
crates/rules/tests/data/xiangqi_repetition.txt. The output is deterministic
for a given pyffish version and SEED.

Every case is a start FEN (with its halfmove clock), a list of moves in
our ICCS notation (ranks 0-9; pyffish writes ranks 1-10, converted here),
and Fairy-Stockfish's verdict after the last move:

- no legal move: pyffish.game_result (checkmate or stalemate, a loss);
- else pyffish.is_optional_game_end with the `xiangqi` variant: its value
  is from the side to move's view (> 0 it wins, < 0 it loses, 0 a draw);
- else ongoing (pyffish.is_immediate_game_end is checked to stay false).

Fairy-Stockfish gives a value, not a rule's name; the name is derived here.
A draw with the halfmove clock at 100 or more, past the check allowance
(2 plies per check beyond 10 of the side that checked more, counted as
Fairy-Stockfish counts them, when 20 or more plies were played), is
`move-limit`, any other draw `repetition`. A win is `perpetual-check` when
the loser gave check with every move of the cycle (the positions after its
moves back to the earliest of the three occurrences all in check), else
`perpetual-chase`. The generator checks that the winner it derives from the
check flags agrees with Fairy-Stockfish's value.

Sources (the first column):
- fs-test: the xiangqi cases of Fairy-Stockfish's own test.py
  (test_is_optional_game_end), several of them the AXF rule book's
  diagrams (D39, D106), converted to our notation;
- cycle4 / cycle8: a random position (a random playout from the start,
  or one of the hand-made endgames below) and a back-and-forth cycle of
  one piece a side (cycle4) or two pieces for the first side (cycle8),
  played until the third occurrence, tagged with the moving pieces and,
  where chosen for it, `check`;
- check4 / chase4: cycles built to force, mostly from sparse random
  positions (generals and two to four pieces a side): a piece checking from two
  points in turn while the general steps aside and back, or a piece
  following an enemy piece that escapes back and forth (the attacks found
  by asking pyffish which captures the mover would have if it moved again);
  Fairy-Stockfish decides whether each is a forbidden perpetual;
- prefix: the same cycles cut one ply before the verdict (ongoing);
- capture: a cycle, a capture, then a cycle again (the capture resets
  the count);
- shuffle: a random playout without captures that prefers to move pieces
  back, until Fairy-Stockfish ends the game (repetition or the limit);
- limit: random playouts from a FEN whose halfmove clock is near 100, long
  playouts from the endgames, and (limit:checks) check-heavy ones that run
  past 100 plies on the allowance for checks.
"""

import os
import random
import re
import subprocess
import sys

PYFFISH = "pyffish==0.0.90"
VENV = "/tmp/qipan-pyffish"
SEED = 20261124
OUT = "crates/rules/tests/data/xiangqi_repetition.txt"
V = "xiangqi"


def ensure_venv():
    try:
        import pyffish  # noqa: F401
        return
    except ImportError:
        pass
    py = os.path.join(VENV, "bin", "python")
    if not os.path.exists(py):
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
        subprocess.check_call([py, "-m", "pip", "install", "-q", PYFFISH])
    os.execv(py, [py] + sys.argv)


ensure_venv()
import pyffish as sf  # noqa: E402

MOVE = re.compile(r"^([a-i])(\d+)([a-i])(\d+)$")


def to_iccs(m):
    f1, r1, f2, r2 = MOVE.match(m).groups()
    return f"{f1}{int(r1) - 1}{f2}{int(r2) - 1}"


def origin(m):
    f1, r1, _, _ = MOVE.match(m).groups()
    return f"{f1}{r1}"


def target(m):
    _, _, f2, r2 = MOVE.match(m).groups()
    return f"{f2}{r2}"


def reverse(m):
    f1, r1, f2, r2 = MOVE.match(m).groups()
    return f"{f2}{r2}{f1}{r1}"


def board_key(fen):
    """Board and side to move: what a repetition compares."""
    return " ".join(fen.split()[:2])


def verdict(fen, moves):
    """Fairy-Stockfish's verdict after `moves`: (result, reason)."""
    legal = sf.legal_moves(V, fen, moves)
    stm = "red" if sf.get_fen(V, fen, moves).split()[1] == "w" else "black"
    other = "black" if stm == "red" else "red"
    if not legal:
        value = sf.game_result(V, fen, moves)
        assert value < 0, (fen, moves, value)
        reason = "checkmate" if sf.gives_check(V, fen, moves) else "stalemate"
        return f"{other}-wins", reason
    immediate, _ = sf.is_immediate_game_end(V, fen, moves)
    assert not immediate, (fen, moves)
    end, value = sf.is_optional_game_end(V, fen, moves)
    if not end:
        return "ongoing", "-"
    checks = [sf.gives_check(V, fen, moves[:k]) for k in range(len(moves) + 1)]
    fens = [sf.get_fen(V, fen, moves[:k]) for k in range(len(moves) + 1)]
    n = len(moves)
    clock = int(fens[-1].split()[4])
    end_ = min(clock, n)
    if value == 0:
        allowance = 0
        if n >= 20:
            them = sum(checks[n - i] for i in range(0, end_, 2))
            us = sum(checks[n - i - 1] for i in range(0, end_, 2))
            allowance = 2 * max(max(them, us) - 10, 0)
        if clock - allowance >= 100:
            return "draw", "move-limit"
        return "draw", "repetition"
    # A decisive repetition: find the third occurrence's span.
    key = board_key(fens[-1])
    seen, span = 0, None
    for i in range(4, end_ + 1, 2):
        if board_key(fens[n - i]) == key:
            seen += 1
            if seen == 2:
                span = i
                break
    assert span is not None, (fen, moves)
    them = all(checks[n - i] for i in range(0, span + 1, 2))
    us = all(checks[n - i] for i in range(1, span, 2))
    winner = stm if value > 0 else other
    if them or us:
        assert them != us, (fen, moves)
        loser_checks = other if them else stm
        assert winner != loser_checks, (fen, moves, value)
        return f"{winner}-wins", "perpetual-check"
    return f"{winner}-wins", "perpetual-chase"


CASES = []
SEEN = set()


def add(source, fen, moves, expect=None):
    key = (fen, tuple(moves))
    if key in SEEN:
        return None
    SEEN.add(key)
    result, reason = verdict(fen, moves)
    if expect is not None:
        assert result == expect, (source, fen, moves, result, expect)
    CASES.append((source, fen, moves, result, reason))
    return result, reason


def fs_tests():
    """Fairy-Stockfish's test.py xiangqi cases (the `[]` of a hand dropped)."""
    t = [
        ("direct-chase-by-cannon", "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1", ["c3a3", "a8b8", "a3b3", "b8a8", "b3a3", "a8b8", "a3b3", "b8a8", "b3a3"]),
        ("chase-with-chasing-side-to-move", "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1", ["c3a3", "a8b8", "a3b3", "b8a8", "b3a3", "a8b8", "a3b3", "b8a8", "b3a3", "a8b8", "a3b3", "b8a8"]),
        ("discovered-chase-by-cannon", "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/CC1AKA3 w - - 0 1", ["a5a6", "a7b7", "a6b6", "b7a7", "b6a6", "a7b7", "a6b6", "b7a7", "b6a6"]),
        ("chase-by-soldier-is-none", "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/1C1AKA3 w - - 0 1", ["a5a6", "a7b7", "a6b6", "b7a7", "b6a6", "a7b7", "a6b6", "b7a7", "b6a6"]),
        ("discovered-and-anti-discovered-chase", "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1", ["f5d5", "f6d6", "d5f5", "d6f6", "f5d5", "f6d6", "d5f5", "d6f6"]),
        ("mutual-chase", "4k4/7n1/9/4pR3/9/9/4P4/9/9/4K4 w - - 0 1", ["f7h7"] + 2 * ["h9f8", "h7h8", "f8g6", "h8g8", "g6i7", "g8g7", "i7h9", "g7h7"]),
        ("perpetual-check-vs-intermittent", "9/3kc4/3a5/3P5/9/4p4/9/4K4/9/3C5 w - - 0 1", 2 * ["d7e7", "e5d5", "e7d7", "d5e5"]),
        ("perpetual-check-by-soldier", "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1", 2 * ["f2e2", "f3e3", "e2f2", "e3f3"]),
        ("perpetual-check-2", "3k5/4P4/4b4/3C5/4c4/9/9/9/9/5K3 w - - 0 1", 2 * ["d7e7", "e8g6", "e7d7", "g6e8"]),
        ("perpetual-check-3", "3k5/9/9/9/9/9/9/9/cr1CAK3/9 w - - 0 1", 2 * ["d2d4", "b2b4", "d4d2", "b4b2"]),
        ("perpetual-check-4", "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1", 2 * ["f5d5", "f6d6", "d5f5", "d6f6"]),
        ("perpetual-check-5", "4k4/9/4b4/2c2nR2/9/9/9/9/9/3K5 w - - 0 1", 2 * ["g7g6", "f7g9", "g6g7", "g9f7"]),
        ("perpetual-check-6", "3P5/3k5/3nn4/9/9/9/9/9/9/5K3 w - - 0 1", 2 * ["d10e10", "d9e9", "e10d10", "e9d9"]),
        ("perpetual-check-7", "4ck3/9/9/9/9/2r1R4/9/9/4A4/3AK4 w - - 0 1", 2 * ["e5e4", "c5c4", "e4e5", "c4c5"]),
        ("perpetual-check-8", "4k4/9/9/c1c6/9/r8/9/9/C8/3K5 w - - 0 1", 2 * ["a2c2", "a5c5", "c2a2", "c5a5"]),
        ("mutual-perpetual-check-1", "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1", 2 * ["e4d4", "d7e7", "d4e4", "e7d7"]),
        ("mutual-perpetual-check-2", "3k5/6c2/9/7P1/6c2/6P2/9/9/9/5K3 w - - 0 1", 2 * ["h7g7", "g6h6", "g7h7", "h6g6"]),
        ("mutual-perpetual-check-3", "4ck3/9/9/9/9/2r1R1N2/6N2/9/4A4/3AK4 w - - 0 1", 2 * ["e5e4", "c5c4", "e4e5", "c4c5"]),
        ("mutual-perpetual-check-4", "5k3/9/9/c8/9/P1P6/9/2C6/9/3K5 w - - 0 1", 2 * ["c3a3", "a7c7", "a3c3", "c7a7"]),
        ("mutual-perpetual-check-5", "4k4/9/r1r6/9/PPPP5/9/9/9/1C7/5K3 w - - 0 1", ["b2a2"] + 2 * ["a8b8", "a2c2", "c8d8", "c2b2", "b8a8", "b2d2", "d8c8", "d2a2"]),
        ("axf-D106-attack-does-not-change", "3k2b2/4P4/4b4/9/8p/6Bc1/6P1P/3AB4/4pp3/1p1K3R1 w - - 0 1", 2 * ["h1h2", "h5h4", "h2h1", "h4h5"]),
        ("axf-D39-pinned-chariot-1", "2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w - - 0 1", ["b7b9"] + 2 * ["f10e9", "b9b10", "e9f10", "b10b9"]),
        ("axf-D39-pinned-chariot-2", "5k3/9/9/9/9/9/7r1/9/2nRA3c/4K4 w - - 0 1", 2 * ["e2f1", "h4h2", "f1e2", "h2h4"]),
        ("pin-undermines-root", "4k4/4c4/9/4p4/9/9/3rn4/3NR4/4K4/9 b - - 0 1", 2 * ["e4g5", "e2f2", "g5e4", "f2e2"]),
        ("discovered-check-threat-by-rook", "5k3/9/9/9/9/1N2P1C2/9/4BC3/9/cr1RK4 w - - 0 1", 2 * ["b5c3", "b1c1", "c3b5", "c1b1"]),
        ("pin-and-discovered-check-by-horse", "5k3/9/9/9/9/4c4/3n5/3NBA3/4A4/4K4 w - - 0 1", 2 * ["e1d1", "e5d5", "d1e1", "d5e5"]),
        ("pin-and-discovered-check-by-rook", "5k3/9/9/9/9/4c4/3r5/3NB4/4A4/4K4 w - - 0 1", 2 * ["e1d1", "e5d5", "d1e1", "d5e5"]),
        ("x-ray-protected-discovered-check", "5k3/9/9/9/9/9/9/9/9/3NK1cr1 w - - 0 1", 2 * ["d1c3", "h1h3", "c3d1", "h3h1"]),
        ("no-overprotection-by-general", "3k5/9/9/3n5/9/9/3r5/9/9/3NK4 w - - 0 1", 2 * ["d1c3", "d4c4", "c3d1", "c4d4"]),
        ("overprotection-by-general", "3k5/9/9/9/9/9/3r5/9/9/3NK4 w - - 0 1", 2 * ["d1c3", "d4c4", "c3d1", "c4d4"]),
        ("mutual-pins-by-flying-generals", "4k4/9/9/9/4n4/9/5C3/9/4N4/4K4 w - - 0 1", 2 * ["e2g1", "e10f10", "g1e2", "f10e10"]),
        ("fake-protection-by-cannon", "5k3/9/9/9/9/1C7/1r7/9/1C7/4K4 w - - 0 1", 2 * ["b5c5", "b4c4", "c5b5", "c4b4"]),
        ("fake-protection-by-cannon-mutual-chase", "4ka3/c2R1R2c/4b4/9/9/9/9/9/9/4K4 w - - 0 1", 2 * ["f9f7", "f10e9", "f7f9", "e9f10"]),
    ]
    for name, fen, moves in t:
        add(f"fs-test:{name}", fen, moves)
        # Every earlier prefix of at least four plies, so that the exact
        # ply a verdict falls on is pinned too.
        for k in range(4, len(moves)):
            add(f"fs-test-prefix:{name}", fen, moves[:k])


# Hand-made endgames with open lines, so that cycles check and chase often.
ENDGAMES = [
    "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
    "3akab2/9/4b4/9/2n3r2/9/2R3N2/9/4A4/3AK1B2 w - - 0 1",
    "2bak4/4a4/4b4/p3c4/6r2/2R6/P3C4/4B4/4A4/3AK4 w - - 0 1",
    "4ka3/4a4/9/9/2n1r4/9/2R1N4/9/4A4/4KA3 w - - 0 1",
    "3k5/4a4/4b4/2c6/9/6R2/9/4B4/9/3AK4 w - - 0 1",
    "4k4/9/4b4/9/2p1n1p2/9/2P1N1P2/4B4/9/4K4 w - - 0 1",
    "3k1a3/4a4/9/r8/9/9/8R/9/4A4/3AK4 w - - 0 1",
    "2b1k4/4a4/4b4/1c7/9/9/7C1/4B4/4A4/2B1K4 w - - 0 1",
    "3k5/9/9/4n4/2r6/6R2/4N4/9/9/5K3 w - - 0 1",
    "4k4/4a4/3a5/9/9/2c3C2/9/3A5/4A4/4K4 w - - 0 1",
]


def sparse_position(rng):
    """Generals in their palaces and two to four other pieces a side on
    random points they may stand on, red or black to move: few defenders,
    open lines, so that attacks are often on unprotected pieces."""
    while True:
        board = {}
        rk = (rng.randrange(3, 6), rng.randrange(0, 3))
        bk = (rng.randrange(3, 6), rng.randrange(7, 10))
        board[rk] = "K"
        board[bk] = "k"
        for side in "wb":
            bag = list("RRNNCCPPAA")
            rng.shuffle(bag)
            for letter in bag[:rng.randrange(2, 5)]:
                for _ in range(20):
                    f, r = rng.randrange(9), rng.randrange(10)
                    if (f, r) in board:
                        continue
                    own = r <= 4 if side == "w" else r >= 5
                    if letter == "P" and (own and (r < 3 if side == "w" else r > 6) or (own and f % 2)):
                        continue
                    if letter == "A":
                        pal = (r <= 2) if side == "w" else (r >= 7)
                        if not (3 <= f <= 5 and pal and (f + r) % 2 == (1 if side == "w" else 0)):
                            continue
                    board[(f, r)] = letter if side == "w" else letter.lower()
                    break
        if rk[0] == bk[0] and not any((rk[0], r) in board for r in range(rk[1] + 1, bk[1])):
            continue
        rows = []
        for r in range(9, -1, -1):
            row, empty = "", 0
            for f in range(9):
                ch = board.get((f, r))
                if ch is None:
                    empty += 1
                else:
                    row += (str(empty) if empty else "") + ch
                    empty = 0
            rows.append(row + (str(empty) if empty else ""))
        side = rng.choice("wb")
        fen = "/".join(rows) + f" {side} - - 0 1"
        other = "/".join(rows) + f" {'b' if side == 'w' else 'w'} - - 0 1"
        if sf.validate_fen(fen, V) != sf.FEN_OK or sf.gives_check(V, other, []):
            continue
        if not sf.legal_moves(V, fen, []):
            continue
        return fen


def random_position(rng):
    """A position from a random playout from the start, or an endgame."""
    if rng.random() < 0.4:
        fen = rng.choice(ENDGAMES)
        moves = []
        for _ in range(rng.randrange(0, 6)):
            legal = sf.legal_moves(V, fen, moves)
            if not legal:
                break
            moves.append(rng.choice(legal))
        return sf.get_fen(V, fen, moves)
    fen = sf.start_fen(V)
    moves = []
    for _ in range(rng.randrange(10, 90)):
        legal = sf.legal_moves(V, fen, moves)
        if not legal:
            break
        moves.append(rng.choice(legal))
        if sf.is_optional_game_end(V, fen, moves)[0]:
            moves.pop()
            break
    out = sf.get_fen(V, fen, moves)
    # The cases start with a fresh halfmove clock unless one is wanted.
    parts = out.split()
    parts[4] = "0"
    return " ".join(parts)


def piece_letter(fen, moves, m):
    """The FEN letter of the piece moved by `m` after `moves`."""
    board = sf.get_fen(V, fen, moves).split()[0]
    rows = board.split("/")
    f = ord(m[0]) - ord("a")
    r = int(MOVE.match(m).group(2))
    row = rows[10 - r]
    col = 0
    for ch in row:
        if ch.isdigit():
            col += int(ch)
        else:
            if col == f:
                return ch
            col += 1
    return "?"


def occupied(fen, moves):
    """The occupied points after `moves`, as (file letter, rank 1-10)."""
    board = sf.get_fen(V, fen, moves).split()[0]
    points = set()
    for i, row in enumerate(board.split("/")):
        col = 0
        for ch in row:
            if ch.isdigit():
                col += int(ch)
            else:
                points.add(f"{chr(ord('a') + col)}{10 - i}")
                col += 1
    return points


def quiet_moves(fen, moves, legal=None):
    """The legal moves after `moves` that capture nothing."""
    if legal is None:
        legal = sf.legal_moves(V, fen, moves)
    taken = occupied(fen, moves)
    return [m for m in legal if target(m) not in taken]


def all_quiet(fen, moves):
    """Whether every move is legal and takes nothing where it is played."""
    for k, m in enumerate(moves):
        if m not in quiet_moves(fen, moves[:k]):
            return False
    return True


def cycles4(rng, fen, want_check, limit):
    """Back-and-forth cycles of one piece a side from `fen`."""
    found = []
    a_moves = quiet_moves(fen, [])
    if want_check:
        a_moves = [m for m in a_moves if sf.gives_check(V, fen, [m])]
    rng.shuffle(a_moves)
    for a in a_moves[:10]:
        replies = quiet_moves(fen, [a])
        rng.shuffle(replies)
        for b in replies[:6]:
            if reverse(a) not in sf.legal_moves(V, fen, [a, b]):
                continue
            seq = [a, b, reverse(a), reverse(b)]
            if not all_quiet(fen, seq):
                continue
            found.append(seq)
            if len(found) >= limit:
                return found
    return found


def cycles8(rng, fen, limit):
    """Cycles where the first side moves two pieces out and back in turn
    (two different checkers or chasers), the second side one piece."""
    found = []
    legal = quiet_moves(fen, [])
    checks = [m for m in legal if sf.gives_check(V, fen, [m])]
    rng.shuffle(checks)
    rng.shuffle(legal)
    firsts = checks[:6] + legal[:4]
    for a1 in firsts:
        replies = quiet_moves(fen, [a1])
        rng.shuffle(replies)
        for b in replies[:3]:
            seconds = [m for m in quiet_moves(fen, [a1, b]) if origin(m) != target(a1)]
            rng.shuffle(seconds)
            ck = [m for m in seconds[:12] if sf.gives_check(V, fen, [a1, b, m])]
            for a2 in (ck[:2] + seconds[:1]):
                seq = [a1, b, a2, reverse(b), reverse(a1), b, reverse(a2), reverse(b)]
                if all_quiet(fen, seq):
                    found.append(seq)
                    if len(found) >= limit:
                        return found
    return found


def threatened(fen, moves):
    """The points of the pieces the side that just moved could take, were
    it to move again (the side to move flipped), or None when that side is
    giving check (the flipped position would not be legal)."""
    if sf.gives_check(V, fen, moves):
        return None
    parts = sf.get_fen(V, fen, moves).split()
    parts[1] = "b" if parts[1] == "w" else "w"
    flipped = " ".join(parts)
    taken = occupied(flipped, [])
    return {target(m) for m in sf.legal_moves(V, flipped, []) if target(m) in taken}


def check_cycles(rng, fen, limit):
    """Cycles where the first side checks with every move: a piece checks
    from y, the general steps aside, the piece checks again from x, the
    general steps back."""
    found = []
    legal = quiet_moves(fen, [])
    checks = [m for m in legal if sf.gives_check(V, fen, [m])]
    rng.shuffle(checks)
    for a in checks[:8]:
        replies = quiet_moves(fen, [a])
        rng.shuffle(replies)
        for b in replies[:8]:
            seq = [a, b, reverse(a), reverse(b)]
            if not all_quiet(fen, seq):
                continue
            if not sf.gives_check(V, fen, seq[:3]):
                continue
            found.append(seq)
            if len(found) >= limit:
                return found
    return found


def chase_cycles(rng, fen, limit):
    """Cycles where the first side's piece follows a piece of the other
    side: x-y attacks the piece on p, it escapes p-q, y-x attacks it on q,
    it goes back q-p."""
    found = []
    legal = quiet_moves(fen, [])
    rng.shuffle(legal)
    # What the first side could take already: an attack kept is no chase.
    now = {target(m) for m in sf.legal_moves(V, fen, [])} - {target(m) for m in legal}
    for a in legal[:14]:
        hit = threatened(fen, [a])
        if not hit:
            continue
        replies = [b for b in quiet_moves(fen, [a]) if origin(b) in hit - now]
        rng.shuffle(replies)
        for b in replies[:4]:
            seq = [a, b, reverse(a), reverse(b)]
            if not all_quiet(fen, seq):
                continue
            again = threatened(fen, seq[:3])
            if not again or target(b) not in again:
                continue
            found.append(seq)
            if len(found) >= limit:
                return found
    return found


def generate_forcing(rng, quota_check, quota_chase):
    """Cycles built to check or chase with every move of one side."""
    made = {"check": 0, "chase": 0}
    quota = {"check": quota_check, "chase": quota_chase}
    tries = 0
    while any(made[k] < quota[k] for k in made) and tries < 6000:
        tries += 1
        fen = sparse_position(rng) if rng.random() < 0.7 else random_position(rng)
        if not sf.legal_moves(V, fen, []):
            continue
        kind = "check" if made["check"] < quota["check"] and (
            made["chase"] >= quota["chase"] or rng.random() < 0.5) else "chase"
        finder = check_cycles if kind == "check" else chase_cycles
        for seq in finder(rng, fen, 2):
            moves = seq * 2
            k = end_ply(fen, moves)
            if k is None or k < len(moves):
                continue
            name = f"{kind}4:{tag(fen, seq, False)}"
            if add(name, fen, moves) is None:
                continue
            made[kind] += 1
            add(f"prefix:{name}", fen, moves[:-1], "ongoing")
            # The same cycle entered from the other side's first move.
            if rng.random() < 0.3:
                add(f"{kind}4-on:{tag(fen, seq, False)}", fen, moves + seq[:rng.randrange(1, 4)])


def end_ply(fen, moves):
    """The first ply (from 1) after which the game ends, or None."""
    for k in range(1, len(moves) + 1):
        if not sf.legal_moves(V, fen, moves[:k]) or sf.is_optional_game_end(V, fen, moves[:k])[0]:
            return k
    return None


def tag(fen, seq, check):
    letters = "".join(piece_letter(fen, seq[:k], seq[k]) for k in range(len(seq) // 2 if len(seq) > 4 else 2))
    return letters + (":check" if check else "")


def generate_cycles(rng, counts):
    quota4, quota8 = counts
    made4 = made8 = 0
    tries = 0
    while (made4 < quota4 or made8 < quota8) and tries < 4000:
        tries += 1
        fen = random_position(rng)
        if not sf.legal_moves(V, fen, []):
            continue
        if made4 < quota4:
            want_check = rng.random() < 0.45
            for seq in cycles4(rng, fen, want_check, 3):
                moves = seq * 2
                k = end_ply(fen, moves)
                if k is None or k < len(moves):
                    continue
                r = add(f"cycle4:{tag(fen, seq, want_check)}", fen, moves)
                if r is None:
                    continue
                made4 += 1
                add(f"prefix:cycle4:{tag(fen, seq, want_check)}", fen, moves[:-1], "ongoing")
                # Three more plies around the cycle: the verdict holds on.
                if rng.random() < 0.2:
                    add(f"cycle4-on:{tag(fen, seq, want_check)}", fen, moves + seq[:rng.randrange(1, 4)])
        if made8 < quota8 and rng.random() < 0.5:
            for seq in cycles8(rng, fen, 2):
                moves = seq * 2
                k = end_ply(fen, moves)
                if k is None or k < len(moves):
                    continue
                if add(f"cycle8:{tag(fen, seq, False)}", fen, moves) is None:
                    continue
                made8 += 1
                add(f"prefix:cycle8:{tag(fen, seq, False)}", fen, moves[:-1], "ongoing")


def generate_capture_breaks(rng, quota):
    """A cycle repeated once, a capture, and a new cycle to the verdict."""
    made = 0
    tries = 0
    while made < quota and tries < 3000:
        tries += 1
        fen = random_position(rng)
        cyc = cycles4(rng, fen, rng.random() < 0.3, 1)
        if not cyc:
            continue
        head = cyc[0] + cyc[0][:2]
        if end_ply(fen, head) is not None:
            continue
        quiet = set(quiet_moves(fen, head))
        caps = [m for m in sf.legal_moves(V, fen, head) if m not in quiet]
        if not caps:
            continue
        cap = rng.choice(caps)
        moves = head + [cap]
        after = sf.get_fen(V, fen, moves)
        cyc2 = cycles4(rng, after, rng.random() < 0.4, 1)
        if not cyc2:
            continue
        tail = cyc2[0] * 2
        full = moves + tail
        k = end_ply(fen, full)
        if k is None or k < len(full):
            continue
        if add(f"capture:{tag(after, cyc2[0], False)}", fen, full) is None:
            continue
        add(f"prefix:capture:{tag(after, cyc2[0], False)}", fen, full[:-1], "ongoing")
        made += 1


def shuffle_playout(rng, fen, max_plies, check_bias=0.0, back_bias=0.6, check_all=False):
    """Quiet moves, preferring to undo the mover's previous move, until the
    game ends or max_plies; the moves, and whether it ended."""
    moves = []
    while len(moves) < max_plies:
        legal = sf.legal_moves(V, fen, moves)
        if not legal:
            return moves, True
        quiet = quiet_moves(fen, moves, legal)
        if not quiet:
            return moves, False
        m = None
        if len(moves) >= 2 and rng.random() < back_bias:
            back = reverse(moves[-2])
            if back in quiet:
                m = back
        if m is None and check_bias and rng.random() < check_bias:
            sample = quiet if check_all else rng.sample(quiet, min(8, len(quiet)))
            ck = [x for x in sample if sf.gives_check(V, fen, moves + [x])]
            if ck:
                m = rng.choice(ck)
        if m is None:
            m = rng.choice(quiet)
        moves.append(m)
        if sf.is_optional_game_end(V, fen, moves)[0]:
            return moves, True
    return moves, False


def generate_shuffles(rng, quota):
    made = 0
    tries = 0
    while made < quota and tries < 2000:
        tries += 1
        fen = random_position(rng)
        moves, ended = shuffle_playout(rng, fen, 60, back_bias=rng.choice([0.3, 0.6, 0.8]))
        if not ended or len(moves) < 4:
            continue
        if add("shuffle", fen, moves) is None:
            continue
        add("prefix:shuffle", fen, moves[:-1], "ongoing")
        made += 1


def generate_limits(rng, quota_clock, quota_long):
    made = 0
    tries = 0
    while made < quota_clock and tries < 2000:
        tries += 1
        fen = random_position(rng)
        parts = fen.split()
        parts[4] = str(rng.randrange(88, 101))
        fen = " ".join(parts)
        moves, ended = shuffle_playout(rng, fen, 16, back_bias=0.1)
        if not ended:
            continue
        if add("limit:clock", fen, moves) is None:
            continue
        if moves:
            add("prefix:limit:clock", fen, moves[:-1])
        made += 1
    made = 0
    tries = 0
    while made < quota_long and tries < 400:
        tries += 1
        fen = rng.choice(ENDGAMES)
        bias = rng.choice([0.0, 0.3, 0.6])
        moves, ended = shuffle_playout(rng, fen, 160, check_bias=bias, back_bias=0.05)
        if not ended:
            continue
        r = add(f"limit:long:{bias}", fen, moves)
        if r is None:
            continue
        add(f"prefix:limit:long:{bias}", fen, moves[:-1])
        made += 1


def generate_check_limits(rng, quota):
    """Long check-heavy playouts without captures, so that a side gives more
    than ten checks and the limit's allowance for checks comes into play."""
    made = 0
    tries = 0
    while made < quota and tries < 60:
        tries += 1
        fen = rng.choice(ENDGAMES[1:])
        moves, ended = shuffle_playout(rng, fen, 200, check_bias=0.9, back_bias=0.0, check_all=True)
        if not ended or len(moves) <= 100:
            continue
        if add("limit:checks", fen, moves) is None:
            continue
        add("prefix:limit:checks", fen, moves[:-1])
        made += 1


def main():
    rng = random.Random(SEED)
    # `--quick` makes a small file for trying the generator out.
    scale = 0.05 if "--quick" in sys.argv else 1.0
    q = lambda n: max(1, int(n * scale))  # noqa: E731
    fs_tests()
    generate_forcing(rng, q(100), q(200))
    generate_cycles(rng, (q(420), q(120)))
    generate_capture_breaks(rng, q(60))
    generate_shuffles(rng, q(120))
    generate_limits(rng, q(60), q(24))
    generate_check_limits(random.Random(SEED + 1), q(12))
    version = ".".join(map(str, sf.version()))
    counts = {}
    for source, _, _, result, reason in CASES:
        group = source.split(":")[0]
        counts[(group, result if result in ("ongoing", "draw") else "win", reason)] = \
            counts.get((group, result if result in ("ongoing", "draw") else "win", reason), 0) + 1
    with open(OUT, "w") as out:
        out.write(f"# Xiangqi verdicts after a list of moves, from Fairy-Stockfish's\n")
        out.write(f"# `xiangqi` variant through pyffish {version}, written by\n")
        out.write(f"# scripts/xiangqi-repetition-data.py (seed {SEED}); see its header for\n")
        out.write(f"# how the cases are made and how the reasons are named.\n")
        out.write(f"# Columns, tab-separated: source, start FEN (with its halfmove clock),\n")
        out.write(f"# moves in ICCS (ranks 0-9, space-separated), result (red-wins,\n")
        out.write(f"# black-wins, draw, ongoing), reason (an EndReason name, or - ).\n")
        out.write(f"# {len(CASES)} cases:\n")
        for (group, result, reason), n in sorted(counts.items()):
            out.write(f"#   {group:8} {result:8} {reason:16} {n}\n")
        for source, fen, moves, result, reason in CASES:
            iccs = " ".join(to_iccs(m) for m in moves)
            out.write(f"{source}\t{fen}\t{iccs}\t{result}\t{reason}\n")
    print(f"{len(CASES)} cases written to {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
