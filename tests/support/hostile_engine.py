"""A hostile engine for the sandbox tests (tests/integration/arena_sandbox.rs).

    hostile_engine.py ATTACK...

It plays as the starter bot (scripts/starter-bot/otau_bot.py, copied beside it, greedy), and at
its first `go` it makes the attacks given, each reported on stderr (the engine's log) as one line
`attack WHAT: SUCCEEDED ...` or `attack WHAT: refused (WHY)`:

    read:PATH      read a file                  write:PATH    append a line to a file
    kill:PID       SIGKILL a process            connect:PORT  connect to 127.0.0.1:PORT
    forkbomb       processes that fork without end (bounded: depth 5, 3 children, 20 s)
    alloc:MB       fill MB megabytes            threads:N     N threads busy on all cores
    spin:MS        after each bestmove, a thread busy for MS ms (on the opponent's time)
    think:MS       sleep MS ms before each bestmove (a slow opponent, using no CPU)
    tag:TEXT       nothing: marks the command line, so that the test finds its processes

With `threads:N` every `go` takes 50 ms and reports `cpu-report cpu=S wall=S` (the process's CPU
time and the wall time since the threads started).
"""

import hashlib
import os
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import otau_bot  # noqa: E402

ATTACKS = [a for a in sys.argv[1:] if not a.startswith("tag:")]
sys.argv = sys.argv[:1]
STATE = {"attacked": False, "threads_since": None}


def report(what, ok, why=""):
    sys.stderr.write(f"attack {what}: {'SUCCEEDED' if ok else 'refused'} {why}\n")
    sys.stderr.flush()


def attempt(what, action):
    try:
        result = action()
        report(what, True, repr(result)[:80])
    except Exception as e:  # every refusal is reported, never raised
        report(what, False, f"({type(e).__name__}: {e})")


def read(path):
    with open(path, "rb") as f:
        return f.read(64)


def write(path):
    with open(path, "a") as f:
        f.write("hostile line\n")
    return "appended"


def connect(port):
    with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
        s.sendall(b"hostile\n")
    return "connected"


def bomb(depth):
    """Forks up to 3 children, each a bomb one level deeper; spins until 20 s have passed."""
    until = time.monotonic() + 20
    children = 0
    while time.monotonic() < until:
        if depth < 5 and children < 3:
            try:
                if os.fork() == 0:
                    depth, children = depth + 1, 0
                    continue
                children += 1
            except OSError:
                time.sleep(0.001)
    os._exit(0)


def forkbomb():
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1):
            os.dup2(devnull, fd)
        bomb(0)
    return f"started {pid}"


def alloc(mb):
    block = bytearray(b"\x01") * (mb << 20)
    return f"{len(block) >> 20} MB filled"


def busy():
    data = b"x" * (1 << 20)
    while True:
        hashlib.sha256(data).digest()  # releases the GIL: a core a thread


def threads(n):
    STATE["threads_since"] = (time.monotonic(), time.process_time())
    for _ in range(n):
        threading.Thread(target=busy, daemon=True).start()
    return f"{n} threads"


def spin(ms):
    until = time.monotonic() + ms / 1000
    data = b"x" * (1 << 16)
    while time.monotonic() < until:
        hashlib.sha256(data).digest()


def every_go(after):
    """`think:` before the move, `spin:` after it: not attacks, so each `go`."""
    for a in ATTACKS:
        kind, _, arg = a.partition(":")
        if kind == "think" and not after:
            time.sleep(int(arg) / 1000)
        elif kind == "spin" and after:
            threading.Thread(target=spin, args=(int(arg),), daemon=True).start()


def attack():
    for a in ATTACKS:
        if a.partition(":")[0] in ("spin", "think"):
            continue
        kind, _, arg = a.partition(":")
        if kind == "read":
            attempt(a, lambda: read(arg))
        elif kind == "write":
            attempt(a, lambda: write(arg))
        elif kind == "kill":
            attempt(a, lambda: os.kill(int(arg), 9))
        elif kind == "connect":
            attempt(a, lambda: connect(int(arg)))
        elif kind == "forkbomb":
            attempt(a, forkbomb)
        elif kind == "alloc":
            attempt(a, lambda: alloc(int(arg)))
        elif kind == "threads":
            attempt(a, lambda: threads(int(arg)))
        else:
            report(a, False, "(unknown attack)")


plain_go = otau_bot.Engine.go


def go(self, args):
    if not STATE["attacked"]:
        STATE["attacked"] = True
        attack()
    since = STATE["threads_since"]
    if since is not None:
        time.sleep(0.05)
        wall, cpu = time.monotonic() - since[0], time.process_time() - since[1]
        sys.stderr.write(f"cpu-report cpu={cpu:.3f} wall={wall:.3f}\n")
        sys.stderr.flush()
    every_go(after=False)
    plain_go(self, args)
    every_go(after=True)


otau_bot.Engine.go = go
otau_bot.main()
