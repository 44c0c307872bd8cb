#!/usr/bin/env python3
"""Generate kifu's bundled corpus of synthetic Go games: corpus/generated/.

Usage:  python3 scripts/gen_corpus.py [OUTDIR]      (default: corpus/generated)

Deterministic: a fixed seed, Python's Mersenne Twister (whose `random`, `shuffle` and `choice`
have given the same sequences since Python 3.2), no clock, no file-system order. Running it again
rewrites the same SGF text byte for byte; the .zip and .tar.gz carry fixed dates, so they are
identical too as long as zlib compresses the same way (it has for years; the SGF inside is what
matters).

The games are random *playouts*: each side plays a random legal move that does not fill one of its
own eyes, until both pass because no such move is left. At that point every stone left on the
board is alive (everything else has been captured), so the final position can be counted exactly,
and the recorded results are exact:
- area (Chinese): stones + points surrounded by one colour, komi 7.5, and N points to White for N
  handicap stones;
- territory (Japanese 1989): surrounded points + prisoners, komi 6.5; empty points next to a chain
  in seki (a chain with a liberty shared with the other colour) are not territory (Art. 8).
Moves obey positional superko as well as simple ko and no suicide, so every generated game is
legal under every preset, except the ones in illegal/ that end with one deliberate illegal move.

Everything the generator knows about each game is written to MANIFEST.tsv, so tests can check
kifu against it: board, handicap, komi, rules, moves, result, both margins, and for the illegal
games the move number and the code kifu must report.
"""

import io
import os
import random
import sys
import tarfile
import zipfile

SEED = 20261129
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
EMPTY, BLACK, WHITE = 0, 1, 2


def other(color):
    return BLACK + WHITE - color


class Board:
    """A plain Go board: a flat list, chains found by flood fill, Zobrist hash for superko."""

    def __init__(self, size, rng):
        self.n = size
        self.cells = [EMPTY] * (size * size)
        self.neighbours = [self._neighbours(p) for p in range(size * size)]
        self.diagonals = [self._diagonals(p) for p in range(size * size)]
        self.keys = [(rng.getrandbits(64), rng.getrandbits(64)) for _ in range(size * size)]
        self.hash = 0
        self.history = {0}
        self.ko = None  # point the side to move may not play (simple ko)
        self.captures = {BLACK: 0, WHITE: 0}  # stones captured BY each colour

    def _neighbours(self, p):
        n = self.n
        r, c = divmod(p, n)
        out = []
        if r > 0:
            out.append(p - n)
        if r < n - 1:
            out.append(p + n)
        if c > 0:
            out.append(p - 1)
        if c < n - 1:
            out.append(p + 1)
        return out

    def _diagonals(self, p):
        n = self.n
        r, c = divmod(p, n)
        return [
            (r + dr) * n + (c + dc)
            for dr in (-1, 1)
            for dc in (-1, 1)
            if 0 <= r + dr < n and 0 <= c + dc < n
        ]

    def chain(self, p):
        """The chain through p and its liberties."""
        color = self.cells[p]
        stones, liberties, stack = {p}, set(), [p]
        while stack:
            q = stack.pop()
            for nb in self.neighbours[q]:
                v = self.cells[nb]
                if v == EMPTY:
                    liberties.add(nb)
                elif v == color and nb not in stones:
                    stones.add(nb)
                    stack.append(nb)
        return stones, liberties

    def place(self, p, color):
        self.cells[p] = color
        self.hash ^= self.keys[p][color - 1]

    def remove(self, p):
        self.hash ^= self.keys[p][self.cells[p] - 1]
        self.cells[p] = EMPTY

    def try_play(self, p, color):
        """Plays p if legal (empty, not ko, not suicide, not superko). Returns the problem's
        code ('occupied', 'ko', 'suicide', 'superko') or None when played."""
        if self.cells[p] != EMPTY:
            return "occupied"
        if p == self.ko:
            return "ko"
        self.place(p, color)
        captured = []
        for nb in self.neighbours[p]:
            if self.cells[nb] == other(color):
                stones, liberties = self.chain(nb)
                if not liberties:
                    captured.extend(stones)
        captured = sorted(set(captured))
        for q in captured:
            self.remove(q)
        stones, liberties = self.chain(p)
        if not liberties:
            self.remove(p)
            return "suicide"
        if self.hash in self.history:
            for q in captured:
                self.place(q, other(color))
            self.remove(p)
            return "superko"
        self.history.add(self.hash)
        self.captures[color] += len(captured)
        single = len(captured) == 1 and len(stones) == 1 and len(liberties) == 1
        self.ko = captured[0] if single else None
        return None

    def pass_move(self):
        self.ko = None

    def is_eye(self, p, color):
        """A point a playout must not fill: every neighbour is `color`, and enough diagonals
        are too (at most one opponent diagonal in the middle, none on the edge)."""
        if self.cells[p] != EMPTY:
            return False
        if any(self.cells[nb] != color for nb in self.neighbours[p]):
            return False
        bad = sum(1 for d in self.diagonals[p] if self.cells[d] == other(color))
        return bad == 0 if len(self.diagonals[p]) < 4 else bad <= 1

    def regions(self):
        """Empty regions with the colours that border them."""
        seen = set()
        for p in range(self.n * self.n):
            if self.cells[p] != EMPTY or p in seen:
                continue
            region, border, stack = [p], set(), [p]
            seen.add(p)
            while stack:
                q = stack.pop()
                for nb in self.neighbours[q]:
                    v = self.cells[nb]
                    if v == EMPTY:
                        if nb not in seen:
                            seen.add(nb)
                            region.append(nb)
                            stack.append(nb)
                    else:
                        border.add(v)
            yield region, border

    def area(self):
        """Area count (Black, White): stones + empty points bordered by one colour only."""
        score = {BLACK: 0, WHITE: 0}
        for v in self.cells:
            if v != EMPTY:
                score[v] += 1
        for region, border in self.regions():
            if len(border) == 1:
                score[border.pop()] += len(region)
        return score[BLACK], score[WHITE]

    def territory(self):
        """Territory (Black, White), Japanese 1989 Art. 8: points bordered by one colour, except
        those next to a chain in seki (a chain with a liberty in a region both colours border)."""
        dame = set()
        for region, border in self.regions():
            if len(border) == 2:
                dame.update(region)
        seki_stones = set()
        for p in range(self.n * self.n):
            if self.cells[p] != EMPTY and p not in seki_stones:
                stones, liberties = self.chain(p)
                if liberties & dame:
                    seki_stones.update(stones)
        score = {BLACK: 0, WHITE: 0}
        for region, border in self.regions():
            if len(border) != 1:
                continue
            touches_seki = any(nb in seki_stones for q in region for nb in self.neighbours[q])
            if not touches_seki:
                score[border.pop()] += len(region)
        return score[BLACK], score[WHITE]


def sgf_point(n, p):
    r, c = divmod(p, n)
    return LETTERS[c] + LETTERS[r]


def star_points(n, count):
    """Standard handicap points (SGF order as most servers write them)."""
    edge = 3 if n >= 13 else 2
    far, mid = n - 1 - edge, n // 2
    corners = [(far, edge), (edge, far), (far, far), (edge, edge)]
    sides = [(edge, mid), (far, mid), (mid, edge), (mid, far)]
    if count <= 4:
        chosen = corners[:count]
    elif count == 5:
        chosen = corners + [(mid, mid)]
    elif count == 6:
        chosen = corners + sides[:2]
    elif count == 7:
        chosen = corners + sides[:2] + [(mid, mid)]
    elif count == 8:
        chosen = corners + sides
    else:
        chosen = corners + sides + [(mid, mid)]
    return [y * n + x for (x, y) in chosen]


def playout(board, rng, first, max_moves, stop=None):
    """Random playout from `first` until both pass (or `stop(board, color, moves)` returns a
    move to append and stop). Returns (moves, ended_by_passes, stopped_with)."""
    moves = []
    color = first
    passes = 0
    cells = board.n * board.n
    while len(moves) < max_moves:
        if stop is not None:
            injected = stop(board, color, moves)
            if injected is not None:
                return moves, False, injected
        candidates = [p for p in range(cells) if board.cells[p] == EMPTY]
        rng.shuffle(candidates)
        played = None
        for p in candidates:
            if board.is_eye(p, color):
                continue
            if board.try_play(p, color) is None:
                played = p
                break
        if played is None:
            board.pass_move()
            moves.append((color, None))
            passes += 1
            if passes == 2:
                return moves, True, None
        else:
            moves.append((color, played))
            passes = 0
        color = other(color)
    return moves, False, None


def result_text(margin):
    """SGF RE for a Black-minus-White margin."""
    if margin == 0:
        return "0"
    points = abs(margin)
    text = str(int(points)) if points == int(points) else str(points)
    return ("B+" if margin > 0 else "W+") + text


NAMES = [
    "Aoki", "Baek", "Chen", "Duarte", "Eriksen", "Fujita", "Gao", "Hoshino", "Ivanova", "Jeong",
    "Kato", "Lin", "Moreau", "Nakamura", "Ortega", "Park", "Qian", "Rossi", "Sato", "Tanaka",
    "Ueda", "Vogel", "Wang", "Xu", "Yamada", "Zhou",
]


class Game:
    """One generated game: its SGF text and its MANIFEST row."""

    def __init__(self, text, row):
        self.text = text
        self.row = row


def make_game(rng, number, size, *, handicap=0, rules="Chinese", ending="counted", names=None,
              date=None, comment=None, stop=None, after=None):
    board = Board(size, rng)
    setup = star_points(size, handicap) if handicap >= 2 else []
    for p in setup:
        board.place(p, BLACK)
    board.history = {board.hash}
    first = WHITE if setup else BLACK
    max_moves = size * size * 3
    moves, finished, injected = playout(board, rng, first, max_moves, stop)

    komi = {"Chinese": 7.5, "Japanese": 6.5, None: 7.5}[rules]
    if setup:
        komi = 0.5
    black_area, white_area = board.area()
    compensation = handicap if (setup and rules != "Japanese") else 0
    area_margin = black_area - white_area - komi - compensation
    black_terr, white_terr = board.territory()
    territory_margin = (black_terr + board.captures[BLACK]) - (white_terr + board.captures[WHITE]) - komi
    counted = area_margin if rules != "Japanese" else territory_margin

    re = None
    if injected is not None or after is not None:
        re = None
    elif ending == "counted" and finished:
        re = result_text(counted)
    elif ending in ("resign", "time") or not finished:
        winner = "B" if counted > 0 else "W"
        cut = max(10, int(len(moves) * rng.uniform(0.4, 0.9)))
        moves = moves[:cut]
        re = winner + ("+R" if ending != "time" else "+T")
        area_margin = territory_margin = None

    black, white = names or (rng.choice(NAMES) + " " + str(rng.randint(1, 99)),
                             rng.choice(NAMES) + " " + str(rng.randint(1, 99)))
    props = ["GM[1]", "FF[4]", "CA[UTF-8]", "AP[kifu gen_corpus.py:1]", "SZ[%d]" % size]
    if rules is not None:
        props.append("RU[%s]" % rules)
    props.append("KM[%s]" % (str(komi)))
    if setup:
        props.append("HA[%d]" % handicap)
    props += ["PB[%s]" % sgf_escape(black), "PW[%s]" % sgf_escape(white)]
    props.append("DT[%s]" % (date or "2026-%02d-%02d" % (rng.randint(1, 12), rng.randint(1, 28))))
    props.append("GN[generated %d]" % number)
    if re is not None:
        props.append("RE[%s]" % re)
    if comment:
        props.append("GC[%s]" % sgf_escape(comment))
    if setup:
        props.append("AB" + "".join("[%s]" % sgf_point(size, p) for p in setup))
        props.append("PL[W]")

    body = []
    for color, p in moves:
        body.append(";%s[%s]" % ("B" if color == BLACK else "W", "" if p is None else sgf_point(size, p)))
    illegal_move, illegal_code = "", ""
    if injected is not None:
        color, point_text, code = injected
        body.append(";%s[%s]" % (color, point_text))
        illegal_move, illegal_code = str(len(body)), code
    if after is not None:
        extra, code = after(board, moves)
        body.extend(extra)
        illegal_move, illegal_code = str(len(moves) + 1), code
    lines = ["(;" + "".join(props)]
    for i in range(0, len(body), 12):
        lines.append("".join(body[i:i + 12]))
    text = "\n".join(lines) + ")\n"
    fmt = lambda m: "" if m is None else (str(int(m)) if m == int(m) else str(m))
    row = {
        "board": str(size), "handicap": str(handicap if setup else 0), "komi": fmt(komi),
        "rules": rules or "", "moves": str(len(body)), "result": re or "",
        "area_margin": fmt(area_margin) if injected is None and after is None else "",
        "territory_margin": fmt(territory_margin) if injected is None and after is None else "",
        "illegal_move": illegal_move, "expected_code": illegal_code,
    }
    return Game(text, row)


def sgf_escape(text):
    return text.replace("\\", "\\\\").replace("]", "\\]")


# --- deliberate problems -------------------------------------------------------------------

def inject(code, rng, min_moves):
    """A `stop` callback that appends one illegal move of kind `code` once it is available."""
    letter = lambda c: "B" if c == BLACK else "W"

    def stop(board, color, moves):
        if len(moves) < min_moves:
            return None
        n = board.n
        if code == "occupied":
            stones = [p for p in range(n * n) if board.cells[p] != EMPTY]
            return (letter(color), sgf_point(n, rng.choice(stones)), code) if stones else None
        if code == "ko":
            return (letter(color), sgf_point(n, board.ko), code) if board.ko is not None else None
        if code == "suicide":
            for p in range(n * n):
                # A point whose every neighbour is an opponent chain with other liberties.
                if board.cells[p] != EMPTY:
                    continue
                nbs = board.neighbours[p]
                if all(board.cells[q] == other(color) for q in nbs) and all(
                    len(board.chain(q)[1]) > 1 for q in nbs
                ):
                    return (letter(color), sgf_point(n, p), code)
            return None
        if code == "out-of-turn":
            # The player who just moved moves again, on a point with an empty neighbour (so
            # that the move is not also a suicide) that is not the ko point.
            for p in range(n * n):
                if board.cells[p] == EMPTY and p != board.ko and any(
                    board.cells[q] == EMPTY for q in board.neighbours[p]
                ):
                    return (letter(other(color)), sgf_point(n, p), code)
            return None
        if code == "off-board":
            # One column right of the board (never `tt`, a pass on boards up to 19x19).
            return (letter(color), LETTERS[n] + LETTERS[rng.randrange(n)], code)
        raise ValueError(code)

    return stop


def after_end(board, moves):
    """Appends a move after the two closing passes: the next player fills one of its own eyes
    (legal in itself, so the only problem is that the game was over)."""
    color = other(moves[-1][0])
    own_eyes = [p for p in range(board.n * board.n)
                if board.cells[p] == EMPTY and all(board.cells[q] == color for q in board.neighbours[p])]
    empties = own_eyes or [p for p in range(board.n * board.n) if board.cells[p] == EMPTY]
    p = empties[len(empties) // 2]
    return [";%s[%s]" % ("B" if color == BLACK else "W", sgf_point(board.n, p))], "after-end"


# --- the corpus ----------------------------------------------------------------------------

def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join("corpus", "generated")
    rng = random.Random(SEED)
    manifest = []
    number = 0

    def new(size, **kw):
        nonlocal number
        number += 1
        return make_game(rng, number, size, **kw)

    def write(rel, text, encoding="utf-8"):
        path = os.path.join(out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(text.encode(encoding))

    def record(source, games):
        for i, g in enumerate(games, 1):
            manifest.append(dict(source="generated/" + source, game=str(i), **g.row))

    def pick_rules():
        x = rng.random()
        return "Chinese" if x < 0.6 else ("Japanese" if x < 0.9 else None)

    def pick_ending():
        x = rng.random()
        return "counted" if x < 0.55 else ("resign" if x < 0.95 else "time")

    # 19x19 single-game files; 15% handicap games under Chinese rules.
    for i in range(1, 201):
        handicap = rng.randint(2, 9) if rng.random() < 0.15 else 0
        rules = "Chinese" if handicap else pick_rules()
        g = new(19, handicap=handicap, rules=rules, ending=pick_ending())
        rel = "19x19/%04d.sgf" % i
        write(rel, g.text)
        record(rel, [g])

    # Collections: one file, many games.
    for size, count in ((13, 200), (9, 400)):
        games = []
        for _ in range(count):
            handicap = rng.randint(2, 4) if (size == 13 and rng.random() < 0.1) else 0
            rules = "Chinese" if handicap else pick_rules()
            games.append(new(size, handicap=handicap, rules=rules, ending=pick_ending()))
        rel = "collections/%dx%d-%d-games.sgf" % (size, size, count)
        write(rel, "".join(g.text for g in games))
        record(rel, games)

    # Archives of single-game files.
    zip_games = [new(9, rules=pick_rules(), ending=pick_ending()) for _ in range(80)]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for i, g in enumerate(zip_games, 1):
            info = zipfile.ZipInfo("9x9/%03d.sgf" % i, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, g.text)
    os.makedirs(os.path.join(out, "archives"), exist_ok=True)
    with open(os.path.join(out, "archives", "9x9-80-games.zip"), "wb") as f:
        f.write(buf.getvalue())
    for i, g in enumerate(zip_games, 1):
        record("archives/9x9-80-games.zip!9x9/%03d.sgf" % i, [g])

    tar_games = [new(13, rules=pick_rules(), ending=pick_ending()) for _ in range(40)]
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for i, g in enumerate(tar_games, 1):
            data = g.text.encode("utf-8")
            info = tarfile.TarInfo("13x13/%03d.sgf" % i)
            info.size, info.mtime, info.mode = len(data), 1767225600, 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            t.addfile(info, io.BytesIO(data))
    import gzip
    with open(os.path.join(out, "archives", "13x13-40-games.tar.gz"), "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0) as gz:
            gz.write(raw.getvalue())
    for i, g in enumerate(tar_games, 1):
        record("archives/13x13-40-games.tar.gz!13x13/%03d.sgf" % i, [g])

    # Games with one deliberate problem, as the last move.
    kinds = [("occupied", 6), ("ko", 6), ("suicide", 6), ("off-board", 4)]
    for code, count in kinds:
        for i in range(1, count + 1):
            size = (9, 13, 19)[i % 3]
            g = None
            while g is None or not g.row["expected_code"]:
                # A playout may end before the move becomes possible (no ko arose): try again.
                g = new(size, rules="Chinese",
                        comment="one illegal move (%s) as the last move" % code,
                        stop=inject(code, rng, min_moves=size * 2))
            rel = "illegal/%s-%02d.sgf" % (code, i)
            write(rel, g.text)
            record(rel, [g])
    for i in range(1, 4):
        g = new(9, rules="Chinese", comment="last move: out-of-turn",
                stop=inject("out-of-turn", rng, min_moves=20))
        rel = "problems/out-of-turn-%02d.sgf" % i
        write(rel, g.text)
        record(rel, [g])
        g = new(9, rules="Chinese", comment="last move: after-end", after=after_end)
        rel = "problems/after-end-%02d.sgf" % i
        write(rel, g.text)
        record(rel, [g])

    # Names a spreadsheet would run as formulas (kifu quotes them in its CSV files).
    hostile = [("=HYPERLINK(\"http://example.invalid/\",\"x\")", "Plain Name"),
               ("+81 Tokyo", "@admin"), ("-dash-", "=1+1"), ("@SUM(A1:A9)", "-")]
    games = [new(9, rules="Chinese", names=pair) for pair in hostile]
    write("names/spreadsheet-formulas.sgf", "".join(g.text for g in games))
    record("names/spreadsheet-formulas.sgf", games)

    # Player names in three charsets, each declared in CA.
    for rel, charset, label, pair in (
        ("charsets/gbk.sgf", "gbk", "GB2312", ("柯洁", "古力")),
        ("charsets/shift_jis.sgf", "shift_jis", "Shift_JIS", ("井山裕太", "一力遼")),
        ("charsets/euc-kr.sgf", "euc-kr", "EUC-KR", ("신진서", "박정환")),
    ):
        g = new(19, rules="Japanese" if charset == "shift_jis" else "Chinese", names=pair)
        write(rel, g.text.replace("CA[UTF-8]", "CA[%s]" % label), encoding=charset)
        record(rel, [g])

    columns = ["source", "game", "board", "handicap", "komi", "rules", "moves", "result",
               "area_margin", "territory_margin", "illegal_move", "expected_code"]
    with open(os.path.join(out, "MANIFEST.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\t".join(columns) + "\n")
        for row in manifest:
            f.write("\t".join(row[c] for c in columns) + "\n")
    print("%d games written to %s" % (len(manifest), out))


if __name__ == "__main__":
    main()
