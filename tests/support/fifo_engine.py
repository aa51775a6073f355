"""The starter bot behind two named pipes, for the sandbox tests: a process whose id the test
knows before the run (the opponent's, which a hostile engine is told to kill).

    fifo_engine.py IN_FIFO OUT_FIFO

The arena's engine is a proxy (`cat OUT_FIFO & exec cat > IN_FIFO`); this process serves one
proxy after another (the start-up check's, then the run's) until it is killed.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import otau_bot  # noqa: E402

IN_FIFO, OUT_FIFO = sys.argv[1], sys.argv[2]
sys.argv = sys.argv[:1]

while True:
    inp = open(IN_FIFO)
    out = open(OUT_FIFO, "w")
    sys.stdout = out
    engine = otau_bot.Engine("toguz-kumalak", "greedy", 0)
    try:
        for raw in inp:
            words = raw.split()
            if words:
                engine.handle(words)
    except (SystemExit, BrokenPipeError):
        pass
    sys.stdout = sys.__stdout__
    for f in (inp, out):
        try:
            f.close()
        except OSError:
            pass
