"""Draws OUT/storm-STORE-*.json (scripts/pace-curve.sh) as one SVG on
stdout: drain rate against users' write p99 during the drain, lapse and
the floor by batch size, lapse paced by budget, the floor held to a share
of its time, and the idle p99's 1.5x.

usage: python3 scripts/pace-curve.py OUT STORE > curve.svg
"""
import glob, json, math, os, sys

dest, store = sys.argv[1], sys.argv[2]
points = []  # (series, label, user p99 s, rate)
idle = []
for path in sorted(glob.glob(f"{dest}/storm-{store}-*.json")):
    name = os.path.basename(path)[len(f"storm-{store}-"):-len(".json")]
    d = json.load(open(path))
    idle.append(d["idle"]["user_p99"])
    if name.startswith("batch"):
        b = name[len("batch"):]
        points.append(("lapse", f"b{b}", d["lapse"]["user_p99"], d["lapse"]["rate"]))
        points.append(("floor", f"b{b}", d["floor"]["user_p99"], d["floor"]["rate"]))
    elif name.startswith("floorshare"):
        points.append(("floor held", f"s{name[len('floorshare'):]}", d["floor"]["user_p99"], d["floor"]["rate"]))
        points.append(("lapse paced", f"x{d['user_budget']:g}", d["lapse"]["user_p99"], d["lapse"]["rate"]))
    else:
        points.append(("lapse paced", f"x{name[len('budget'):]}", d["lapse"]["user_p99"], d["lapse"]["rate"]))
if not points:
    sys.exit(f"no storm-{store}-*.json in {dest}")
idle_p99 = sorted(idle)[len(idle) // 2]

W, H, L, R, T, B = 720, 440, 80, 180, 40, 60
xs = [p[2] for p in points] + [idle_p99, 1.5 * idle_p99]
x0, x1 = math.log10(min(xs) / 1.5), math.log10(max(xs) * 1.5)
y1 = max(p[3] for p in points) * 1.1
X = lambda v: L + (math.log10(v) - x0) / (x1 - x0) * (W - L - R)
Y = lambda v: H - B - v / y1 * (H - T - B)
colors = {"lapse": "#1f77b4", "floor": "#d62728", "lapse paced": "#2ca02c", "floor held": "#ff7f0e"}
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
       f'<rect width="{W}" height="{H}" fill="white"/>',
       f'<text x="{L}" y="22" font-size="14">{store}: drain rate against users\' write p99 (idle p99 {idle_p99*1000:.2f} ms)</text>',
       f'<line x1="{L}" y1="{H-B}" x2="{W-R}" y2="{H-B}" stroke="black"/>',
       f'<line x1="{L}" y1="{T}" x2="{L}" y2="{H-B}" stroke="black"/>',
       f'<text x="{(L+W-R)/2}" y="{H-15}" text-anchor="middle">users\' write p99 during the drain (ms, log)</text>',
       f'<text x="18" y="{(T+H-B)/2}" transform="rotate(-90 18 {(T+H-B)/2})" text-anchor="middle">coupons/s</text>']
for e in range(math.floor(x0), math.ceil(x1) + 1):
    for m in (1, 2, 5):
        v = m * 10**e
        if x0 <= math.log10(v) <= x1:
            out.append(f'<line x1="{X(v):.1f}" y1="{H-B}" x2="{X(v):.1f}" y2="{H-B+4}" stroke="black"/>')
            out.append(f'<text x="{X(v):.1f}" y="{H-B+16}" text-anchor="middle">{v*1000:g}</text>')
for i in range(6):
    v = y1 * i / 5
    out.append(f'<text x="{L-6}" y="{Y(v)+4:.1f}" text-anchor="end">{v/1000:.0f}k</text>')
    out.append(f'<line x1="{L}" y1="{Y(v):.1f}" x2="{W-R}" y2="{Y(v):.1f}" stroke="#eee"/>')
for v, label in ((idle_p99, "idle"), (1.5 * idle_p99, "1.5x idle")):
    out.append(f'<line x1="{X(v):.1f}" y1="{T}" x2="{X(v):.1f}" y2="{H-B}" stroke="#999" stroke-dasharray="4 3"/>')
    out.append(f'<text x="{X(v)+3:.1f}" y="{T+12}" fill="#666">{label}</text>')
for i, (series, color) in enumerate(colors.items()):
    pts = sorted((p for p in points if p[0] == series), key=lambda p: p[2])
    if len(pts) > 1:
        out.append('<polyline fill="none" stroke="%s" points="%s"/>' % (color, " ".join(f"{X(p[2]):.1f},{Y(p[3]):.1f}" for p in pts)))
    for p in pts:
        out.append(f'<circle cx="{X(p[2]):.1f}" cy="{Y(p[3]):.1f}" r="4" fill="{color}"/>')
        out.append(f'<text x="{X(p[2])+6:.1f}" y="{Y(p[3])-6:.1f}" fill="{color}">{p[1]}</text>')
    out.append(f'<rect x="{W-R+20}" y="{T+i*20}" width="12" height="12" fill="{color}"/>')
    out.append(f'<text x="{W-R+38}" y="{T+i*20+11}">{series}</text>')
out.append("</svg>")
print("\n".join(out))
