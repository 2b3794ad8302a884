#!/usr/bin/env python3
"""Steady-state lag of a running lapse, measured from its own event feed.

usage: scripts/steady_lag.py coupons|orders BASE_URL RATE SECONDS

coupons: claims coupons of a 2s template at RATE per second for SECONDS and
reports coupon.expired time minus expires_at. orders: creates orders with a
2s timeout at RATE per second and reports order.closed time minus deadline.
Prints one JSON line with p50/p99/max in milliseconds. Standard library only.
"""
import datetime, json, sys, threading, time, urllib.request

mode, base, rate, secs = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])


def call(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, method=method, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.load(r)


if mode == "coupons":
    tpl = call("POST", "/v1/templates", {"name": "lag", "value": 100, "validity": {"duration": "2s"}})["id"]
    event, due_field = "coupon.expired", "expires_at"
    make = lambda i: call("POST", f"/v1/users/u{i}/coupons", {"template_id": tpl})
elif mode == "orders":
    call("PUT", "/v1/skus/lag", {"stock": 100_000_000})
    event, due_field = "order.closed", "deadline"
    make = lambda i: call("POST", "/v1/orders", {"user_id": f"u{i}", "timeout": "2s",
                                                 "items": [{"sku": "lag", "qty": 1, "unit_price": 100}]})
else:
    sys.exit(__doc__)

due, lock = {}, threading.Lock()


def one(i):
    e = make(i)
    with lock:
        due[e["id"]] = e[due_field]


start, i, threads = time.time(), 0, []
while time.time() - start < secs:
    time.sleep(max(0, start + i / rate - time.time()))
    th = threading.Thread(target=one, args=(i,))
    th.start()
    threads.append(th)
    i += 1
    if i % int(rate * 10) == 0:
        print(f"{i} sent", file=sys.stderr)
for th in threads:
    th.join()
time.sleep(3)

ts = lambda s: datetime.datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()
lags, after = [], "0"
while True:
    page = call("GET", f"/v1/events?limit=1000&after={after}")
    if not page["events"]:
        break
    lags += [ts(e["time"]) - ts(due[e["subject"]]) for e in page["events"]
             if e["type"] == event and e["subject"] in due]
    after = page["next"]
lags.sort()
q = lambda p: round(lags[min(len(lags) - 1, int(p * len(lags)))] * 1000, 1)
print(json.dumps({"mode": mode, "made": len(due), "transitioned": len(lags), "rate_per_s": rate, "seconds": secs,
                  "lag_p50_ms": q(.5), "lag_p99_ms": q(.99), "lag_max_ms": q(1.0)}))
