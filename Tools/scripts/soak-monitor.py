#!/usr/bin/env python3
"""Samples a running process's resident memory, open descriptors, threads and (when the process
writes them) its own counters, every few seconds; writes the samples as CSV and a plot as PNG;
fails when any of them grew past its bound after the warm-up.

Usage:
  soak-monitor.py --pid PID --seconds N --out DIR [--interval S] [--warm-up S]
                  [--counters FILE] [--bound NAME=VALUE ...]

  --counters FILE   a file the process rewrites with one JSON object of numbers: each key becomes
                    a column. Keys ending in _total count what was done (they grow with the run:
                    the table gives their rate); the others are what is open now (they are bounded).
  --bound NAME=V    how much NAME may grow between the warm-up's end and the end of the run,
                    comparing the median of the first and the last fifth of the samples after the
                    warm-up (medians, so that one garbage-collection-like spike does not count).
                    Defaults: rss_kib=16384, fds=8, threads=4; a counter without a bound gets 0.

Threads are the process's kernel tasks (/proc/PID/task): the Swift runtime's cooperative pool,
SwiftNIO's event loops and the blocking pools; a leaked thread is a leaked task. The process may
end on its own within the last tenth of the run (its own end), not before.

The PNG is drawn here (zlib and struct only): one panel per column, the warm-up shaded, so a
person can see at a glance whether a line is flat.
"""
import argparse
import csv
import json
import os
import struct
import sys
import time
import zlib


def read_sample(pid: int, counters_path: str | None) -> dict | None:
    try:
        with open(f"/proc/{pid}/status") as status:
            fields = dict(line.split(":", 1) for line in status if ":" in line)
        sample = {
            "rss_kib": int(fields["VmRSS"].split()[0]),
            "fds": len(os.listdir(f"/proc/{pid}/fd")),
            "threads": int(fields["Threads"].strip()),
        }
    except (FileNotFoundError, ProcessLookupError, KeyError):
        return None
    if counters_path:
        try:
            with open(counters_path) as file:
                for key, value in json.load(file).items():
                    if isinstance(value, (int, float)):
                        sample[key] = value
        except (FileNotFoundError, json.JSONDecodeError):
            pass
    return sample


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


# A 5x7 pixel font: digits, lowercase letters and the few signs the labels use.
GLYPHS = {
    "0": "0111010001100111010111001100010111000", "1": "0010001100001000010000100001000111000",
    "2": "0111010001000010001000100010001111100", "3": "1111100010001000001000001100010111000",
    "4": "0001000110010101001011111000100001000", "5": "1111110000111100000100001100010111000",
    "6": "0011001000100001111010001100010111000", "7": "1111100001000100010001000010000100000",
    "8": "0111010001100010111010001100010111000", "9": "0111010001100010111100001000100110000",
    ".": "0000000000000000000000000011000110000", "-": "0000000000000001111100000000000000000",
    " ": "0" * 35, "_": "0000000000000000000000000000001111100", ":": "0000001100011000000001100011000000000",
    "r": "0000000000101101100110000100001000000", "s": "0000000000011111000001110000011111000",
    "k": "1000010000100101010011000101001001000", "i": "0010000000011000010000100001000111000",
    "b": "1000010000101101100110001100011111000", "f": "0011001001010001110001000010001000000",
    "d": "0000100001011011001110001100010111100", "t": "0100001000111000100001000010010011000",
    "h": "1000010000101101100110001100011000100", "e": "0000000000011101000111111100000111000",
    "a": "0000000000011100000101111100010111100", "n": "0000000000101101100110001100011000100",
    "m": "0000000000110101010110101101011010100", "c": "0000000000011101000010000100010111000",
    "o": "0000000000011101000110001100010111000", "u": "0000000000100011000110001100110110100",
    "l": "0110000100001000010000100001000111000", "p": "0000000000111101000111110100001000000",
    "g": "0000000000011111000101111000010111000", "w": "0000000000100011000110101101010101000",
    "v": "0000000000100011000110001010100010000", "y": "0000000000100011000101111000010111000",
    "x": "0000000000100010101000100010101000100", "j": "0001000000001100001000010100100110000",
    "q": "0000000000011011001101111000010000100", "z": "0000000000111110001000100010001111100",
}
# Any other character (labels are lowercased first) is drawn as a box.
BOX = "1111110001100011000110001100011111100"


def draw_png(path: str, names: list[str], rows: list[dict], warm_up: float) -> None:
    width, panel = 900, 150
    height = panel * len(names)
    pixels = bytearray(b"\xff" * (width * height * 3))

    def put(x: int, y: int, color: tuple[int, int, int]) -> None:
        if 0 <= x < width and 0 <= y < height:
            offset = (y * width + x) * 3
            pixels[offset:offset + 3] = bytes(color)

    def text(x: int, y: int, message: str) -> None:
        for character in message.lower():
            glyph = GLYPHS.get(character, BOX)
            for index, bit in enumerate(glyph):
                if bit == "1":
                    put(x + index % 5, y + index // 5, (0, 0, 0))
            x += 6

    seconds = [row["seconds"] for row in rows]
    span = max(seconds[-1] - seconds[0], 1e-9) if seconds else 1
    left, right = 80, width - 20
    for number, name in enumerate(names):
        top, bottom = number * panel + 20, (number + 1) * panel - 20
        values = [row.get(name) for row in rows]
        present = [value for value in values if value is not None]
        low, high = (min(present), max(present)) if present else (0, 1)
        if high == low:
            high = low + 1
        for x in range(left, right):  # the warm-up, shaded
            if (x - left) / (right - left) * span < warm_up:
                for y in range(top, bottom):
                    put(x, y, (235, 235, 235))
        for x in range(left, right):
            put(x, bottom, (120, 120, 120))
        for y in range(top, bottom):
            put(left, y, (120, 120, 120))
        text(4, top, f"{high:g}"[:12])
        text(4, bottom - 7, f"{low:g}"[:12])
        text(left + 8, top - 12, f"{name}")
        previous = None
        for second, value in zip(seconds, values):
            if value is None:
                continue
            x = left + int((second - seconds[0]) / span * (right - left - 1))
            y = bottom - int((value - low) / (high - low) * (bottom - top - 1))
            if previous:
                steps = max(abs(x - previous[0]), abs(y - previous[1]), 1)
                for step in range(steps + 1):
                    put(previous[0] + (x - previous[0]) * step // steps,
                        previous[1] + (y - previous[1]) * step // steps, (30, 90, 200))
            previous = (x, y)
    raw = b"".join(b"\x00" + bytes(pixels[y * width * 3:(y + 1) * width * 3]) for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(path, "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n")
        file.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        file.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        file.write(chunk(b"IEND", b""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--interval", type=float, default=5)
    parser.add_argument("--warm-up", type=float, default=None, help="seconds (default: a tenth of the run, at most 120)")
    parser.add_argument("--counters")
    parser.add_argument("--bound", action="append", default=[])
    arguments = parser.parse_args()

    bounds = {"rss_kib": 16_384.0, "fds": 8.0, "threads": 4.0}
    for item in arguments.bound:
        name, _, value = item.partition("=")
        bounds[name] = float(value)
    warm_up = arguments.warm_up if arguments.warm_up is not None else min(arguments.seconds / 10, 120)
    os.makedirs(arguments.out, exist_ok=True)

    rows: list[dict] = []
    start = time.monotonic()
    while time.monotonic() - start < arguments.seconds:
        sample = read_sample(arguments.pid, arguments.counters)
        if sample is None:
            elapsed = time.monotonic() - start
            if elapsed >= arguments.seconds * 0.9 and rows:
                break
            print(f"soak-monitor: process {arguments.pid} ended after {elapsed:.0f} s", file=sys.stderr)
            return 1
        sample["seconds"] = round(time.monotonic() - start, 1)
        rows.append(sample)
        time.sleep(arguments.interval)

    names = [name for name in rows[0] if name != "seconds"]
    for row in rows:
        for name in row:
            if name not in names and name != "seconds":
                names.append(name)
    # What is open now first (what must stay flat), then the totals (which climb at the rate).
    names.sort(key=lambda name: name.endswith("_total"))
    with open(os.path.join(arguments.out, "samples.csv"), "w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=["seconds", *names])
        writer.writeheader()
        writer.writerows(rows)
    draw_png(os.path.join(arguments.out, "samples.png"), names, rows, warm_up)

    after = [row for row in rows if row["seconds"] >= warm_up]
    fifth = max(len(after) // 5, 1)
    failed = False
    print(f"{'what':<28} {'after warm-up':>14} {'at the end':>12} {'growth':>10} {'bound':>10}")
    for name in names:
        first = [row[name] for row in after[:fifth] if name in row]
        last = [row[name] for row in after[-fifth:] if name in row]
        if not first or not last:
            continue
        if name.endswith("_total"):
            counted = [row for row in after if name in row]
            span = counted[-1]["seconds"] - counted[0]["seconds"]
            rate = (counted[-1][name] - counted[0][name]) / span if span > 0 else 0
            print(f"{name:<28} {counted[0][name]:>14g} {counted[-1][name]:>12g} {rate:>10.1f}/s")
            continue
        begin, end = median(first), median(last)
        bound = bounds.get(name, 0.0)
        verdict = "ok" if end - begin <= bound else "GREW"
        failed |= verdict != "ok"
        print(f"{name:<28} {begin:>14g} {end:>12g} {end - begin:>10g} {bound:>10g} {verdict}")
    print(f"{len(rows)} samples over {rows[-1]['seconds']:.0f} s (warm-up {warm_up:.0f} s): "
          f"{arguments.out}/samples.csv, {arguments.out}/samples.png")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
