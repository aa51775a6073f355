#!/usr/bin/env bash
# Hostile web clients against a live run (issue 27, item 2): plays a match with `--live`, opens
# 64 request heads sent a byte at a time, 64 clients that keep sending after their request and
# 64 event streams never read (each opened again when the server drops it, as an attacker
# would), and meanwhile a normal visitor asks for the page every 250 ms and a normal viewer
# reads the event stream. Prints what the visitor got (answered / refused / no answer, latency),
# what the hostile clients got, and the run's time against the same match played first with no
# web client at all. Everything is bounded: the hostile run is killed after LIMIT seconds.
# Exit status 1 if a visit was not answered 200, or the run did not end by itself with 0.
#
#   scripts/hostile-web.sh [GAMES]      (default 16 games of the built-in otau, depth 10 against 9)
#   LIMIT=300 scripts/hostile-web.sh    (seconds before the hostile run is killed)
#   KEEP=1 scripts/hostile-web.sh       (keep the work directory)
# Needs python3 (standard library only). Run it niced on a shared machine.
set -euo pipefail
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi
cd "$(dirname "$0")/.."
games=${1:-16}
limit=${LIMIT:-300}
cargo build --release --quiet --bin otau-arena
arena=$(cd "${CARGO_TARGET_DIR:-target}/release" && pwd)/otau-arena
work=$(mktemp -d /tmp/otau-hostile-web.XXXXXX)
if [ -z "${KEEP:-}" ]; then trap 'rm -rf "$work"' EXIT; fi
cd "$work"
match=(--engine name=a cmd=builtin:otau depth=10 --engine name=b cmd=builtin:otau depth=9
       --games "$games" --seed 27 --openings plies=4 --concurrency 2 -q)

echo "== the match with no web client: $games games"
start=$(date +%s.%N)
if ! "$arena" "${match[@]}" --out quiet.jsonl >/dev/null 2>quiet.err; then
  cat quiet.err >&2
  exit 1
fi
quiet=$(echo "$(date +%s.%N) - $start" | bc)
echo "   $(printf %.1f "$quiet") s; $(grep -o 'otau-arena: [0-9]* plies in.*' quiet.err || true)"

echo "== the same match, --live, with 64 hostile clients of each kind"
python3 - "$arena" "$limit" "$quiet" "${match[@]}" --out live.jsonl --live 127.0.0.1:0 <<'PY'
import socket, subprocess, sys, threading, time, statistics

arena, limit, quiet, args = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4:]
started = time.monotonic()
proc = subprocess.Popen([arena] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
addr = None
for line in proc.stderr:
    if "http://" in line:
        host, port = line.split("http://", 1)[1].split("/", 1)[0].rsplit(":", 1)
        addr = (host, int(port))
        break
if addr is None:
    sys.exit("no URL printed by the arena")
err_lines = []
# When the run ended: the reading viewer's stream ends (the server then stops), or the run
# printed its figures.
run_over = [None]
def read_err():
    for l in proc.stderr:
        err_lines.append(l)
        if "plies in" in l and run_over[0] is None:
            run_over[0] = time.monotonic()
threading.Thread(target=read_err, daemon=True).start()
hostname = f"{addr[0]}:{addr[1]}"
stop = threading.Event()
lock = threading.Lock()
counts = {}

def count(key, n=1):
    with lock:
        counts[key] = counts.get(key, 0) + n

def connect():
    s = socket.create_connection(addr, timeout=5)
    s.setblocking(False)
    return s

def hostile(kind, n):
    """n clients of one kind, each opened again (at most once a tick) when the server drops it."""
    head = {
        "slow head": f"GET / HTTP/1.1\r\nHost: {hostname}\r\nX-Slow: ",
        "endless": f"GET / HTTP/1.1\r\nHost: {hostname}\r\n\r\n",
        "unread stream": f"GET /events HTTP/1.1\r\nHost: {hostname}\r\n\r\n",
    }[kind].encode()
    socks = [None] * n
    opened = {}
    while not stop.is_set():
        for i in range(n):
            s = socks[i]
            if s is None:
                try:
                    s = connect()
                    s.send(head)
                    socks[i] = s
                    opened[i] = time.monotonic()
                    count(f"{kind}: opened")
                except OSError:
                    count(f"{kind}: could not connect")
                continue
            try:
                if kind == "slow head":
                    s.send(b"a")
                elif kind == "endless":
                    s.send(b"x" * 4096)
                else:
                    # Unread: only look whether the server has closed its side (the socket's
                    # TCP state, Linux: 8 CLOSE_WAIT, 7 CLOSE) and how it had answered (peek).
                    state = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0]
                    if state in (7, 8):
                        try:
                            status = s.recv(12, socket.MSG_PEEK)[9:12]
                        except OSError:
                            status = b""
                        count(f"{kind}: refused 503" if status == b"503" else f"{kind}: served, then dropped")
                        raise ConnectionResetError
            except BlockingIOError:
                pass
            except OSError:
                count(f"{kind}: dropped by the server")
                count(f"{kind}: seconds held", time.monotonic() - opened[i])
                s.close()
                socks[i] = None
        time.sleep(0.2)
    for s in socks:
        if s is not None:
            s.close()

visits = []
def visitor():
    while not stop.is_set():
        t = time.monotonic()
        status = "no answer"
        try:
            s = socket.create_connection(addr, timeout=5)
            s.settimeout(5)
            s.sendall(f"GET / HTTP/1.1\r\nHost: {hostname}\r\nConnection: close\r\n\r\n".encode())
            data = b""
            while True:
                b = s.recv(65536)
                if not b:
                    break
                data += b
            s.close()
            status = data[9:12].decode() or "no answer (closed)"
        except OSError as e:
            status = f"no answer ({type(e).__name__} at {t - started:.1f} s)"
        with lock:
            if run_over[0] is None or t < run_over[0]:
                visits.append((status, time.monotonic() - t))
        time.sleep(0.25)

viewer_states = [0]
def viewer():
    try:
        s = socket.create_connection(addr, timeout=30)
        s.sendall(f"GET /events HTTP/1.1\r\nHost: {hostname}\r\n\r\n".encode())
        buf = b""
        while True:
            b = s.recv(65536)
            if not b:
                break
            *lines, buf = (buf + b).split(b"\n")
            viewer_states[0] += sum(1 for line in lines if line.startswith(b"data: "))
            if any(b'"ended":true' in line for line in lines):
                run_over[0] = run_over[0] or time.monotonic()
    except OSError:
        pass

threads = [threading.Thread(target=hostile, args=(k, 64), daemon=True)
           for k in ("unread stream", "slow head", "endless")]
for t in threads:
    t.start()
time.sleep(1)  # the hostile clients in place first
threading.Thread(target=viewer, daemon=True).start()
vt = threading.Thread(target=visitor, daemon=True)
vt.start()
try:
    code = proc.wait(timeout=max(1.0, limit - (time.monotonic() - started)))
    ended = True
except subprocess.TimeoutExpired:
    proc.kill()
    code = proc.wait()
    ended = False
run_time = time.monotonic() - started
stop.set()
vt.join(10)
for t in threads:
    t.join(10)

answered = [d for st, d in visits if st == "200"]
refused = [st for st, d in visits if st == "503"]
other = [st for st, d in visits if st not in ("200", "503")]
print(f"   run: {'ended by itself, exit ' + str(code) if ended else 'KILLED after ' + str(limit) + ' s'}"
      f", {run_time:.1f} s with the clients (against {quiet:.1f} s with none)")
print("   " + "".join(l for l in err_lines if "plies in" in l).strip())
print(f"   visitor (every 250 ms until the run's end): {len(visits)} visits, {len(answered)} answered 200, {len(refused)} refused 503,"
      f" {len(other)} other ({', '.join(sorted(set(other))) or 'none'})")
if answered:
    q = sorted(answered)
    print(f"   visitor latency: median {statistics.median(q)*1000:.1f} ms,"
          f" 95th percentile {q[int(len(q)*0.95)-1 if len(q) > 1 else 0]*1000:.1f} ms,"
          f" max {q[-1]*1000:.1f} ms; within 1 s: {sum(1 for d in q if d <= 1.0)} of {len(q)}")
print(f"   reading viewer: {viewer_states[0]} states received")
for kind in ("slow head", "endless", "unread stream"):
    opened = counts.get(f"{kind}: opened", 0)
    dropped = counts.get(f"{kind}: dropped by the server", 0)
    held = counts.get(f"{kind}: seconds held", 0.0)
    mean = f", held {held/dropped:.1f} s on average" if dropped else ""
    extra = ""
    if kind == "unread stream":
        extra = (f" ({counts.get(kind + ': refused 503', 0)} refused 503 at once,"
                 f" {counts.get(kind + ': served, then dropped', 0)} served then dropped)")
    print(f"   {kind}: {opened} connections opened, {dropped} dropped by the server{extra}{mean}")
ok = ended and code == 0 and visits and not refused and not other
sys.exit(0 if ok else 1)
PY
