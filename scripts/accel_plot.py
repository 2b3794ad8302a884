#!/usr/bin/env python3
"""Bar plot of scripts/bench-accel.sh's JSON: expiry lag p50, p99 and max
per mode, on a log scale (a storm's lag with no delay queue is minutes, with
one milliseconds).

usage: scripts/accel_plot.py IN.json OUT.svg
Standard library only.
"""
import json, math, sys
from xml.sax.saxutils import escape

src, dst = sys.argv[1], sys.argv[2]
res = json.load(open(src))
modes = list(res)
stats = [("p50_ms", "p50", "#4e79a7"), ("p99_ms", "p99", "#f28e2b"), ("max_ms", "max", "#e15759")]
w, h, left, top, bottom = 640, 360, 70, 40, 50
plot_h = h - top - bottom
values = [max(res[m][k], 1) for m in modes for k, _, _ in stats]
lo, hi = 0, math.ceil(math.log10(max(values + [10])))  # decades: 1 ms .. 10^hi ms


def y(ms):
    return top + plot_h * (1 - (math.log10(max(ms, 1)) - lo) / (hi - lo))


out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
       f'<rect width="{w}" height="{h}" fill="white"/>',
       f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14">Expiry lag, PostgreSQL, 3 instances, loader 10m '
       f'({res[modes[0]]["coupons"]:,} coupons)</text>']
for d in range(lo, hi + 1):
    label = f"{10 ** d / 1000:g} s" if d >= 3 else f"{10 ** d} ms"
    out.append(f'<line x1="{left}" x2="{w - 10}" y1="{y(10 ** d):.1f}" y2="{y(10 ** d):.1f}" stroke="#ddd"/>')
    out.append(f'<text x="{left - 6}" y="{y(10 ** d) + 4:.1f}" text-anchor="end">{label}</text>')
group = (w - left - 10) / len(modes)
bar = group * 0.8 / len(stats)
for i, m in enumerate(modes):
    x0 = left + i * group + group * 0.1
    for j, (k, _, color) in enumerate(stats):
        v = res[m][k]
        out.append(f'<rect x="{x0 + j * bar:.1f}" y="{y(v):.1f}" width="{bar - 2:.1f}" height="{top + plot_h - y(v):.1f}" fill="{color}">'
                   f'<title>{escape(m)} {k}: {v} ms</title></rect>')
    out.append(f'<text x="{left + (i + 0.5) * group:.1f}" y="{h - bottom + 18}" text-anchor="middle">{escape(m)}</text>')
for j, (_, name, color) in enumerate(stats):
    out.append(f'<rect x="{left + j * 70}" y="{h - 18}" width="10" height="10" fill="{color}"/>')
    out.append(f'<text x="{left + j * 70 + 14}" y="{h - 9}">{name}</text>')
out.append("</svg>")
open(dst, "w").write("\n".join(out) + "\n")
