"""Ctrl-C: a long batch query stops with KeyboardInterrupt soon after SIGINT, in a child process
that a timer thread signals while the query runs."""

import json
import os
import subprocess
import sys
import unittest

# Runs in the child: a batch sized to take about 30 s, SIGINT from a timer 0.5 s into it.
CHILD = r"""
import json, os, signal, threading, time
import numpy as np
import hitscan
import reference as ref

v, f = ref.icosphere(4)
scene = hitscan.Scene()
for k in range(20):  # overlapping spheres: every point's sign sums twenty winding numbers
    scene.add_triangles(v + np.float32(0.01 * k), f)
rng = np.random.default_rng(3)
probe = rng.uniform(-1, 1, size=(4000, 3)).astype(np.float32)
start = time.perf_counter()
scene.compute_signed_distance(probe)
rate = len(probe) / (time.perf_counter() - start)
points = rng.uniform(-1, 1, size=(min(int(30 * rate), 4_000_000), 3)).astype(np.float32)
expected = len(points) / rate

sent = []
def interrupt():
    sent.append(time.perf_counter())
    os.kill(os.getpid(), signal.SIGINT)
threading.Timer(0.5, interrupt).start()
start = time.perf_counter()
try:
    scene.compute_signed_distance(points)
    outcome = "finished"
except KeyboardInterrupt:
    outcome = "KeyboardInterrupt"
end = time.perf_counter()
print(json.dumps({"outcome": outcome, "expected_seconds": expected, "seconds": end - start,
                  "after_signal": end - sent[0] if sent else None}))
"""


class InterruptTest(unittest.TestCase):
    def test_sigint_stops_a_long_batch_with_keyboard_interrupt(self):
        here = os.path.dirname(os.path.abspath(__file__))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH")) if p)
        done = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        result = json.loads(done.stdout.strip().splitlines()[-1])
        self.assertEqual(result["outcome"], "KeyboardInterrupt", result)
        # Stopped within a couple of seconds of the signal, long before the batch would have ended.
        self.assertLess(result["after_signal"], 2.0, result)
        self.assertLess(result["seconds"], result["expected_seconds"] / 4, result)


if __name__ == "__main__":
    unittest.main()
