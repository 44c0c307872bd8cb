#!/usr/bin/env python3
"""Writes the seed inputs of every fuzz target into fuzz/corpus/TARGET/, with readable names.

- split_read and charset_decode: the SGF fixtures of corpus/cases/ (collections, charsets) and a
  few made-up hostile files, each behind the option byte the target reads first (0x00: default
  options; 0x01 and up: tight limits; 0x80: --encoding gbk).
- fast_reader_vs_sgf_parse: one game's text behind a limits byte (0x00: none; 0x2b: tight): the
  quirk fixtures, a few generated games and the made-up files.
- analyze_game: one game's text behind a dead-stone mode byte: the scoring oracles' positions,
  the territory-markup quirk and a few generated games.
- board_play and game_play read bytes, not SGF: the moves of a few committed games (and a few
  hand-made positions) are turned into those bytes, so that fuzzing starts from real play:
  captures, ko fights, full boards.

Run from anywhere: python3 fuzz/seeds/make_seeds.py (it rewrites the seeds it makes and leaves
other files alone). The byte formats are described at the top of each fuzz/fuzz_targets/*.rs.
"""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "fuzz" / "corpus"


def sgf_moves(path):
    text = path.read_text(encoding="utf-8")
    size = re.search(r"SZ\[(\d+)(?::(\d+))?\]", text)
    w = int(size.group(1))
    h = int(size.group(2) or w)
    moves = []
    for color, value in re.findall(r";([BW])\[([a-z]{0,2})\]", text):
        if value in ("", "tt") and w <= 19:
            moves.append((color, None))
        else:
            moves.append((color, (ord(value[0]) - 97, ord(value[1]) - 97)))
    setup = [(ord(v[0]) - 97, ord(v[1]) - 97) for v in re.findall(r"AB((?:\[[a-z]{2}\])+)", text)
             for v in re.findall(r"\[([a-z]{2})\]", v)]
    return w, h, setup, moves


def board_seed(w, h, setup, moves, rule=0):
    """rule: 0 suicide forbidden, 1 multi-stone suicide allowed, 2 all suicide allowed."""
    out = bytearray([w - 1, h - 1])
    for x, y in setup:
        out += bytes([6 | (1 << 4), x, y])  # setup: a black stone
    for color, point in moves:
        colour_bit = 8 if color == "W" else 0
        if point is None:
            out += bytes([7, 0, 0])
        else:
            out += bytes([0 | colour_bit | (rule << 4), point[0], point[1]])
    return bytes(out)


def game_seed(w, h, setup, moves, ko, suicide, strict):
    out = bytearray([w - 1, h - 1, ko + 3 * suicide + (0 if strict else 9)])
    for x, y in setup:
        out += bytes([0xC1, x, y])  # setup (0xC0) of a black stone (stone 1)
    for color, point in moves:
        if point is None:
            out += bytes([15, 0, 0])
        else:
            out += bytes([0, point[0], point[1]])
    return bytes(out)


def write(target, name, data):
    folder = OUT / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)


def record_seeds():
    """Fixtures and made-up hostile files for split_read, charset_decode and
    fast_reader_vs_sgf_parse."""
    fixtures = sorted((ROOT / "corpus/cases/collections").glob("*.sgf")) + sorted(
        (ROOT / "corpus/cases/charsets").glob("*.sgf"))
    made_up = {
        "nested-variations-300": b"(;GM[1]" + b"(;B[aa]" * 300 + b")" * 301,
        "unclosed-deep-nesting": b"(;GM[1]" + b"(;W[bb]" * 200,
        "unterminated-value-after-games": b"(;GM[1];B[aa])\n" * 20 + b"(;GM[1]C[never closed",
        "nul-bytes-everywhere": b"\0(;GM\0[1]PB[a\0b];B[\0a]\0)\0(;\0)",
        "invalid-utf8-values": b"(;GM[1]PB[\xff\xfe]C[\xc0\x80 \xe5\x3f\x83];B[pd])" * 3,
        "formula-player-names": b"(;GM[1]PB[=HYPERLINK(\"http://x\",\"y\")]PW[+81 Tokyo]EV[-x]PC[@home];B[pd])",
        "board-52x52-setup": b"(;GM[1]SZ[52:52]AB[aa:ZZ]AW[ab];B[ZZ];W[])",
        "many-tiny-trees": b"(;)" * 200,
        "escaped-brackets-and-backslashes": b"(;GM[1]C[\\\\]\\]\\\\\\]];B[aa])",
        "utf16le-without-bom": "(;GM[1]PB[柯洁];B[pd])".encode("utf-16-le"),
        "gbk-trail-bytes-and-ca": b"(;GM[1]CA[gb2312]PB[\x95\x5d\x88\x5c];B[pd])",
        "iso-2022-jp-escape": b"(;GM[1]CA[iso-2022-jp]PB[\x1b$B$3$s\x1b(B];B[pd])",
        "fox-no-paren": b";GM[1]FF[4]AP[foxwq]KM[375];B[pd](;W[dd])(;W[dp]))",
        "sina-no-semicolon": b"(\nTE[x]RE[y];B[aa])",
    }
    seeds = [(f.stem, f.read_bytes()) for f in fixtures] + list(made_up.items())
    for name, data in seeds:
        write("split_read", f"default-{name}.sgf", b"\x00" + data)
        write("charset_decode", f"auto-{name}.sgf", b"\x00" + data)
    for name, data in list(made_up.items())[:8]:
        write("split_read", f"tight-limits-{name}.sgf", b"\x2b" + data)
        write("split_read", f"gbk-option-{name}.sgf", b"\x80" + data)
    for name, data in seeds[:12]:
        write("charset_decode", f"forced-big5-{name}.sgf", b"\x04" + data)
        write("charset_decode", f"forced-iso-2022-jp-{name}.sgf", b"\x0d" + data)
    # fast_reader_vs_sgf_parse: one game's text; the quirk fixtures (each an SGF oddity), a few
    # generated games with variations, and the made-up files, without and with tight limits.
    quirks = sorted((ROOT / "corpus/cases/quirks").glob("*.sgf"))
    games = sorted((ROOT / "corpus/generated/19x19").glob("*.sgf"))[:4]
    for f in quirks + games:
        write("fast_reader_vs_sgf_parse", f"unlimited-{f.stem}.sgf", b"\x00" + f.read_bytes())
    for name, data in made_up.items():
        write("fast_reader_vs_sgf_parse", f"unlimited-{name}.sgf", b"\x00" + data)
        write("fast_reader_vs_sgf_parse", f"tight-limits-{name}.sgf", b"\x2b" + data)


def analysis_seeds():
    """analyze_game: one game's text behind a dead-stone mode byte (0: auto, 1: estimate, 2:
    markup, 3: as-is): the scoring oracles' positions (cycles, superko, long life), the
    territory-markup quirk, and a few generated games, finished or stopped."""
    oracles = sorted((ROOT / "corpus/cases/oracles/sgf").glob("*.sgf"))
    markup = [ROOT / "corpus/cases/quirks/territory-markup.sgf"]
    games = sorted((ROOT / "corpus/generated/19x19").glob("*.sgf"))[:3]
    for f in oracles + markup + games:
        data = f.read_bytes()
        for mode, mode_name in [(0, "auto"), (1, "estimate"), (2, "markup"), (3, "as-is")]:
            if mode in (0, 3) or f in markup:
                write("analyze_game", f"{mode_name}-{f.stem}.sgf", bytes([mode]) + data)


def main():
    record_seeds()
    analysis_seeds()
    games = {
        "19x19-handicap-6-generated-0001": ROOT / "corpus/generated/19x19/0001.sgf",
        "13x13-ko-generated-ko-01": ROOT / "corpus/generated/illegal/ko-01.sgf",
        "suicide-generated-suicide-02": ROOT / "corpus/generated/illegal/suicide-02.sgf",
        "occupied-generated-occupied-01": ROOT / "corpus/generated/illegal/occupied-01.sgf",
    }
    for name, path in games.items():
        w, h, setup, moves = sgf_moves(path)
        write("board_play", f"{name}.bin", board_seed(w, h, setup, moves))
        write("board_play", f"{name}-suicide-allowed.bin", board_seed(w, h, setup, moves, 2))
        for ko, ko_name in [(0, "simple-ko"), (1, "positional-superko"), (2, "situational-superko")]:
            write("game_play", f"{name}-{ko_name}-strict.bin",
                  game_seed(w, h, [], moves, ko, 0, True))
        write("game_play", f"{name}-simple-ko-tolerant.bin", game_seed(w, h, [], moves, 0, 2, False))

    # A ko on 4x4 taken back and forth: Black and White retake without a ko threat.
    #   . X O .
    #   X O . O
    #   . X O .
    ko_shape = [("B", (1, 0)), ("W", (2, 0)), ("B", (0, 1)), ("W", (1, 1)), ("B", (1, 2)),
                ("W", (2, 2)), ("B", (3, 3)), ("W", (3, 1)), ("B", (2, 1)), ("W", (1, 1)),
                ("B", (2, 1)), ("W", (1, 1)), ("B", None), ("W", None)]
    write("board_play", "4x4-ko-retaken.bin", board_seed(4, 4, [], ko_shape))
    for ko, ko_name in [(0, "simple-ko"), (1, "positional-superko"), (2, "situational-superko")]:
        write("game_play", f"4x4-ko-retaken-{ko_name}-strict.bin",
              game_seed(4, 4, [], ko_shape, ko, 0, True))
    # A 52x52 board filled along its edges and corners (the largest board SGF can address).
    edge = [("B" if i % 2 == 0 else "W", (i % 52, (i * 7) % 52)) for i in range(300)]
    write("board_play", "52x52-scattered.bin", board_seed(52, 52, [], edge))
    # 1x1, 1x2 and 2x1 boards: every move is suicide or fills the board.
    write("board_play", "1x1-suicide-allowed.bin", board_seed(1, 1, [], [("B", (0, 0)), ("W", (0, 0))], 2))
    write("game_play", "2x1-situational-strict.bin",
          game_seed(2, 1, [], [("B", (0, 0)), ("W", (1, 0)), ("B", (0, 0)), ("W", None)], 2, 2, True))


if __name__ == "__main__":
    main()
