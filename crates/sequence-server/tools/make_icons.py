#!/usr/bin/env python3
"""Draws the app's icons (web/icons/, the manifest's, docs/wasm.md): a
green board of 5×5 spaces with a completed sequence of blue chips on its
diagonal (gold rings: locked in a sequence, C8) and a red chip, as SVG
and as PNG at 192 and 512 pixels, plus a maskable 512 (full-bleed, the
drawing inside the safe circle). Pure Python (zlib), no dependencies:

    python3 crates/sequence-server/tools/make_icons.py
"""
import math
import os
import struct
import zlib

OUT = os.path.join(os.path.dirname(__file__), "..", "web", "icons")
FELT = (22, 101, 62)
SPACE = (240, 232, 212)
BLUE = (47, 111, 214)
RED = (200, 48, 48)
GOLD = (232, 184, 48)
BG = (16, 64, 40)


def shapes(pad):
    """The drawing in a unit square: [(kind, params, colour)], painted in
    order. `pad` is the margin (larger for the maskable icon)."""
    out = [("rrect", (pad, pad, 1 - pad, 1 - pad, 0.14 * (1 - 2 * pad)), FELT)]
    cell = (1 - 2 * pad) * 0.86 / 5
    x0 = pad + (1 - 2 * pad) * 0.07
    for r in range(5):
        for c in range(5):
            cx, cy = x0 + (c + 0.5) * cell, x0 + (r + 0.5) * cell
            out.append(("rrect", (cx - cell * 0.42, cy - cell * 0.42, cx + cell * 0.42, cy + cell * 0.42, cell * 0.1), SPACE))
    for k in range(5):
        cx, cy = x0 + (k + 0.5) * cell, x0 + (k + 0.5) * cell
        out.append(("circle", (cx, cy, cell * 0.36), GOLD))
        out.append(("circle", (cx, cy, cell * 0.29), BLUE))
    cx, cy = x0 + 3.5 * cell, x0 + 1.5 * cell
    out.append(("circle", (cx, cy, cell * 0.32), RED))
    return out


def inside(kind, p, x, y):
    if kind == "circle":
        cx, cy, r = p
        return (x - cx) ** 2 + (y - cy) ** 2 <= r * r
    x1, y1, x2, y2, r = p
    if not (x1 <= x <= x2 and y1 <= y <= y2):
        return False
    dx = max(x1 + r - x, 0, x - (x2 - r))
    dy = max(y1 + r - y, 0, y - (y2 - r))
    return dx * dx + dy * dy <= r * r


def png(size, pad, background):
    ss = 3  # samples per pixel side
    drawn = shapes(pad)
    rows = []
    for py in range(size):
        row = bytearray([0])
        for px in range(size):
            acc = [0.0, 0.0, 0.0, 0.0]
            for sy in range(ss):
                for sx in range(ss):
                    x = (px + (sx + 0.5) / ss) / size
                    y = (py + (sy + 0.5) / ss) / size
                    col, a = (background, 1.0) if background else ((0, 0, 0), 0.0)
                    for kind, p, c in drawn:
                        if inside(kind, p, x, y):
                            col, a = c, 1.0
                    for i in range(3):
                        acc[i] += col[i] * a
                    acc[3] += a
            n = ss * ss
            alpha = acc[3] / n
            rgb = [int(round(acc[i] / acc[3])) if acc[3] else 0 for i in range(3)]
            row += bytes(rgb + [int(round(alpha * 255))])
        rows.append(bytes(row))
    raw = b"".join(rows)

    def chunk(kind, data):
        c = struct.pack(">I", len(data)) + kind + data
        return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def svg(pad):
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">']
    for kind, p, c in shapes(pad):
        fill = "#%02x%02x%02x" % c
        if kind == "circle":
            cx, cy, r = (v * 512 for v in p)
            parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{fill}"/>')
        else:
            x1, y1, x2, y2, r = (v * 512 for v in p)
            parts.append(f'<rect x="{x1:.1f}" y="{y1:.1f}" width="{x2 - x1:.1f}" height="{y2 - y1:.1f}" rx="{r:.1f}" fill="{fill}"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main():
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "icon.svg"), "w") as f:
        f.write(svg(0.04))
    for size in (192, 512):
        with open(os.path.join(OUT, f"icon-{size}.png"), "wb") as f:
            f.write(png(size, 0.04, None))
    # maskable: full bleed, the board inside the safe circle (80 %)
    with open(os.path.join(OUT, "icon-maskable-512.png"), "wb") as f:
        f.write(png(512, 0.14, BG))
    print("icons written to", os.path.normpath(OUT))


if __name__ == "__main__":
    main()
