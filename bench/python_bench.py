#!/usr/bin/python3
"""Side-by-side: the same queries through Open3D's RaycastingScene and hitscan's Python module.

Each backend's answers on a sample of the queries are first checked against a brute-force reference
(tests/reference.py: every triangle, float64 numpy); a backend that answers wrongly is reported as
"broken" (value null) instead of being timed against the other. Runs alternate between the
backends; the value is the median over the repetitions. Appends JSON lines to --jsonl:
{"suite": "python", "backend": "hitscan"|"open3d", "query": ..., "metric": "queries_per_s",
 "value": ..., "status": "ok"|"broken", ...}.

Run with Debian's python3 and the module's build directory on PYTHONPATH:
    PYTHONPATH=build/release/python /usr/bin/python3 bench/python_bench.py --jsonl out/bench.jsonl
"""

import argparse
import json
import os
import statistics
import sys
import tarfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python", "tests"))
import reference as ref  # noqa: E402

import hitscan  # noqa: E402

CGAL_DATA = "/usr/share/doc/libcgal-demo/data.tar.gz"
SAMPLE = 192  # rows of each query checked against brute force
TOLERATED = 0.01  # fraction of sampled rows allowed to differ (ties at edges and vertices)


def load_off(text):
    words = text.split()
    assert words[0] == "OFF"
    nv, nf = int(words[1]), int(words[2])
    v = np.array(words[4:4 + 3 * nv], np.float32).reshape(nv, 3)
    faces = np.array(words[4 + 3 * nv:], np.int64)
    faces = faces[: 4 * nf].reshape(nf, 4)
    assert np.all(faces[:, 0] == 3), "triangles only"
    return v, faces[:, 1:].astype(np.uint32)


def load_mesh():
    if os.path.exists(CGAL_DATA):
        with tarfile.open(CGAL_DATA) as tar:
            text = tar.extractfile("data/meshes/bunny00.off").read().decode()
        return "cgal_bunny", *load_off(text)
    return "icosphere6", *ref.icosphere(6)


class Hitscan:
    name = "hitscan"

    def __init__(self, v, f):
        self.scene = hitscan.Scene()
        self.scene.add_triangles(v, f)
        self.scene.commit()

    def prepare(self, array):
        return array

    def call(self, query, data):
        return getattr(self.scene, query)(data)

    def numpy(self, result):
        return {k: np.asarray(x) for k, x in result.items()} if isinstance(result, dict) else np.asarray(result)


class Open3D:
    name = "open3d"

    def __init__(self, v, f):
        import open3d as o3d
        self.o3d = o3d
        self.scene = o3d.t.geometry.RaycastingScene()
        self.scene.add_triangles(o3d.core.Tensor(v), o3d.core.Tensor(f))

    def prepare(self, array):
        return self.o3d.core.Tensor(array)

    def call(self, query, data):
        return getattr(self.scene, query)(data)

    def numpy(self, result):
        return {k: x.numpy() for k, x in result.items()} if isinstance(result, dict) else result.numpy()


def references(v, f, rays, points):
    """Brute-force answers on the first SAMPLE rays and points, with masks of the rows whose answer
    is unambiguous (not within 1e-4 of an edge, a vertex, or the inside/outside boundary)."""
    r, p = rays[:SAMPLE], points[:SAMPLE]
    t = np.full(SAMPLE, np.inf)
    counts = np.zeros(SAMPLE, np.int64)
    near_edge = np.zeros(SAMPLE, bool)
    for start in range(0, SAMPLE, 8):
        tt, _, _, margin = ref.ray_triangle(r[start:start + 8], v, f)
        t[start:start + 8] = tt.min(axis=1)
        counts[start:start + 8] = np.isfinite(tt).sum(axis=1)
        near_edge[start:start + 8] = np.any(np.abs(margin) < 1e-4, axis=1)
    distance = ref.closest_points(p, v, f, block=8)[0]
    winding = ref.winding_numbers(p, v, f, block=8)
    inside = winding >= 0.5
    return {
        "rays_clear": ~near_edge,
        "t_hit": t,
        "counts": counts,
        "distance": distance,
        "signed": np.where(inside, -distance, distance),
        "occupancy": inside.astype(np.float32),
        "points_clear": np.abs(winding - 0.5) > 0.05,
    }


def wrong_fraction(query, answer, want):
    """Fraction of the sampled rows a backend's answer gets wrong."""
    rc, pc = want["rays_clear"], want["points_clear"]
    if query == "cast_rays":
        got = answer["t_hit"][:SAMPLE]
        both_inf = np.isinf(got) & np.isinf(want["t_hit"])
        with np.errstate(invalid="ignore"):
            close = np.abs(got - want["t_hit"]) <= 1e-3 * (1 + np.abs(want["t_hit"]))
        bad = ~(both_inf | close) & rc
    elif query == "test_occlusions":
        bad = (answer[:SAMPLE].astype(bool) != np.isfinite(want["t_hit"])) & rc
    elif query == "count_intersections":
        bad = (answer[:SAMPLE] != want["counts"]) & rc
    elif query == "compute_closest_points":
        got = np.linalg.norm(answer["points"][:SAMPLE] - want["sample_points"], axis=1)
        bad = np.abs(got - want["distance"]) > 1e-4 * (1 + want["distance"])
    elif query == "compute_distance":
        bad = np.abs(answer[:SAMPLE] - want["distance"]) > 1e-4 * (1 + want["distance"])
    elif query == "compute_signed_distance":
        bad = (np.abs(answer[:SAMPLE] - want["signed"]) > 1e-4 * (1 + want["distance"])) & pc
    elif query == "compute_occupancy":
        bad = (answer[:SAMPLE] != want["occupancy"]) & pc
    else:
        raise ValueError(query)
    return float(np.mean(bad))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jsonl", default="out/bench.jsonl")
    parser.add_argument("--rays", type=int, default=200000)
    parser.add_argument("--points", type=int, default=50000)
    parser.add_argument("--repetitions", type=int, default=5)
    args = parser.parse_args()

    mesh, v, f = load_mesh()
    rng = np.random.default_rng(2024)
    lo, hi = v.min(axis=0), v.max(axis=0)
    center, size = (lo + hi) / 2, float(np.max(hi - lo))
    rays = ref.random_rays(rng, args.rays, target_radius=0.5 * size, distance=1.5 * size)
    rays[:, :3] += center.astype(np.float32)
    rays[:, 3:] /= np.linalg.norm(rays[:, 3:], axis=1, keepdims=True)  # unit: tests of tfar stay simple
    points = (center + rng.uniform(-0.6, 0.6, size=(args.points, 3)) * size).astype(np.float32)
    print(f"python_bench: {mesh}, {len(f)} triangles, {args.rays} rays, {args.points} points", flush=True)
    want = references(v, f, rays, points)
    want["sample_points"] = points[:SAMPLE].astype(np.float64)

    backends = [Hitscan(v, f)]
    try:
        backends.append(Open3D(v, f))
    except ImportError:
        print("python_bench: open3d not installed, hitscan alone", flush=True)
    queries = [("cast_rays", rays), ("test_occlusions", rays), ("count_intersections", rays),
               ("compute_closest_points", points), ("compute_distance", points),
               ("compute_signed_distance", points), ("compute_occupancy", points)]
    lines = []
    for query, data in queries:
        inputs = {b.name: b.prepare(data) for b in backends}
        status = {}
        for b in backends:
            wrong = wrong_fraction(query, b.numpy(b.call(query, inputs[b.name])), want)
            status[b.name] = ("ok" if wrong <= TOLERATED else "broken", wrong)
        rates = {b.name: [] for b in backends}
        for rep in range(args.repetitions):
            order = backends if rep % 2 == 0 else backends[::-1]  # alternate who goes first
            for b in order:
                if status[b.name][0] != "ok":
                    continue
                start = time.perf_counter()
                b.call(query, inputs[b.name])
                rates[b.name].append(len(data) / (time.perf_counter() - start))
        for b in backends:
            state, wrong = status[b.name]
            value = statistics.median(rates[b.name]) if state == "ok" else None
            line = {"suite": "python", "case": f"{mesh}/{query}", "mesh": mesh, "tris": int(len(f)),
                    "query": query, "backend": b.name, "metric": "queries_per_s", "value": value,
                    "status": state, "wrong_fraction_of_sample": round(wrong, 4), "sample": SAMPLE,
                    "count": int(len(data)), "repetitions": args.repetitions, "threads": os.cpu_count()}
            lines.append(line)
            shown = f"{value:14.0f}/s" if value is not None else "        broken  "
            print(f"  {query:24s} {b.name:8s} {shown}  (wrong on {100 * wrong:.1f}% of {SAMPLE} checked)",
                  flush=True)
    os.makedirs(os.path.dirname(os.path.abspath(args.jsonl)), exist_ok=True)
    with open(args.jsonl, "a") as out:
        for line in lines:
            out.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
