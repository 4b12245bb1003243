#!/usr/bin/python3
"""Writes docs/benchmarks.md from the JSON lines that `make bench` writes to out/bench.jsonl.

    /usr/bin/python3 scripts/bench_tables.py [out/bench.jsonl [docs/benchmarks.md]] [--cpu MODEL]

One section per suite (ray kernels and packs, mesh rays, watertightness, contacts, scenes, AR,
Python, structures), each with the CPU model and SIMD instruction set the figures were measured
with, every case's median and its same-run ratios against each baseline. Only figures from the
file are used: a ratio is computed from two medians of the same run, never across runs.

The benchmark programs do not record the CPU: the model is taken from a "cpu" key of the lines
when they have one, else from --cpu, else from /proc/cpuinfo of the machine running this script
(run it right after `make bench`, on the same machine). Standard library only.
"""

import argparse
import collections
import json
import os
import sys

DEFAULT_INPUT = "out/bench.jsonl"
DEFAULT_OUTPUT = "docs/benchmarks.md"


# ---------------------------------------------------------------------------------------------
# Reading


def read_lines(path):
    """The JSON objects of `path`, one a line; blank lines skipped, a malformed line an error."""
    figures = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                figure = json.loads(line)
            except json.JSONDecodeError as e:
                raise SystemExit(f"bench_tables: {path}:{number}: not JSON: {e}")
            if not isinstance(figure, dict) or "suite" not in figure:
                raise SystemExit(f"bench_tables: {path}:{number}: no \"suite\" key")
            figures.append(figure)
    return figures


def machine_cpu():
    """This machine's CPU model and logical CPU count from /proc/cpuinfo, or None."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None
    models = [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("model name")]
    if not models:
        return None
    return f"{models[0]} ({len(models)} logical CPUs)"


def by_suite(figures):
    suites = collections.OrderedDict()
    for f in figures:
        suites.setdefault(f["suite"], []).append(f)
    return suites


# ---------------------------------------------------------------------------------------------
# Formatting


def num(value):
    """A figure to four significant digits, with thousands separators from 1,000 on."""
    if value is None:
        return ""
    value = float(value)
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.4g}"


def count(value):
    return f"{int(round(float(value))):,}"


def ratio(numerator, denominator):
    """numerator / denominator as "1.23x", or "" when either is missing or not positive."""
    if numerator is None or denominator is None or numerator <= 0 or denominator <= 0:
        return ""
    r = numerator / denominator
    return f"{r:.2f}x" if r < 10 else f"{r:.1f}x" if r < 100 else f"{r:.0f}x"


def table(header, rows, align=None):
    """A Markdown table; `align` holds "l" or "r" per column (numbers right by default)."""
    if not rows:
        return "(no figures)\n"
    align = align or ["l"] + ["r"] * (len(header) - 1)
    lines = ["| " + " | ".join(header) + " |",
             "| " + " | ".join("---:" if a == "r" else "---" for a in align) + " |"]
    for row in rows:
        lines.append("| " + " | ".join(str(cell) for cell in row) + " |")
    return "\n".join(lines) + "\n"


def distinct(values):
    """The distinct values in order of first appearance."""
    seen = []
    for v in values:
        if v not in seen:
            seen.append(v)
    return seen


class Index:
    """Figures looked up by their identifying keys; a later figure replaces an earlier one (a file
    that several runs appended to gives the last run's)."""

    def __init__(self, figures, keys):
        self.keys = keys
        self.values = {}
        self.figures = {}
        for f in figures:
            key = tuple(f.get(k) for k in keys)
            self.figures[key] = f
            self.values[key] = f.get("value")

    def get(self, **wanted):
        value = self.values.get(tuple(wanted.get(k) for k in self.keys))
        return None if value is None else float(value)

    def figure(self, **wanted):
        return self.figures.get(tuple(wanted.get(k) for k in self.keys))


def machine_line(figures, cpu):
    """The section's "measured on" line: CPU model(s) and SIMD instruction set(s)."""
    cpus = distinct(f["cpu"] for f in figures if f.get("cpu")) or ([cpu] if cpu else [])
    simd = distinct(f["simd"] for f in figures if f.get("simd"))
    parts = ["CPU: " + ("; ".join(cpus) if cpus else "not recorded")]
    if simd:
        parts.append("SIMD: " + ", ".join(simd))
    threads = distinct(f["threads"] for f in figures if isinstance(f.get("threads"), int))
    if threads:
        parts.append("threads: " + ", ".join(str(t) for t in sorted(threads)))
    return "*" + "; ".join(parts) + ".*\n"


# ---------------------------------------------------------------------------------------------
# Suites. Each returns (title, Markdown body) for its figures.


def ray_kernels(figures):
    index = Index(figures, ["suite", "case", "backend"])
    backends = [b for b in distinct(f["backend"] for f in figures) if b != "scalar"]
    widest = backends[-1] if backends else None
    rows = []
    for suite in distinct(f["suite"] for f in figures):
        for case in distinct(f["case"] for f in figures if f["suite"] == suite):
            scalar = index.get(suite=suite, case=case, backend="scalar")
            shapes = "one ray, 8 shapes" if suite == "ray_packs" else "one ray, one shape"
            row = [f"`{case}` ({shapes})", num(scalar)]
            for b in backends:
                row.append(num(index.get(suite=suite, case=case, backend=b)))
            row.append(ratio(scalar, index.get(suite=suite, case=case, backend=widest)) if widest else "")
            rows.append(row)
    header = ["kernel", "scalar ns"] + [f"{b} ns" for b in backends] + [f"scalar / {widest}" if widest else "speed-up"]
    body = ("`hitscan_bench` (Google Benchmark, 7 repetitions in random interleaved order, medians): "
            "nanoseconds per ray-shape test, rays aimed near the shapes so that about half of the tests hit. "
            "The first rows call the scalar kernel once per ray and shape (each call validates its input and "
            "fills the whole hit record); the `_x8` rows test one ray against 8 shapes, the scalar column "
            "looping over the 8, the SIMD columns testing a structure-of-arrays pack of 4 or 8 at once "
            "(bit for bit the scalar kernel's answers, `tests/geometry/ray_pack_test.cpp`).\n\n")
    return "Ray kernels", body + table(header, rows)


# The mesh ray suite's ray sets, as its tables name them, by (set, query); and its meshes' kinds.
# A mesh asked a shooter's rays (view, shots, sight) is a game level.
MESH_RAY_SETS = {
    ("coherent", "closest"): "coherent",
    ("incoherent", "closest"): "incoherent",
    ("incoherent", "any"): "incoherent any-hit",
    ("view", "closest"): "view",
    ("shots", "closest"): "shots",
    ("sight", "any"): "sight any-hit",
}
SHOOTER_SETS = ("view", "shots", "sight")
MESH_KINDS = {
    "armadillo": "scan (CGAL's data)",
    "bunny": "scan (CGAL's data)",
    "wuson": "model (assimp's tests)",
    "spider": "model (assimp's tests)",
    "noisy_sphere": "generated: subdivided icosahedron, bumpy radius",
    "terrain": "generated: fractal noise height field",
}
TINYBVH = "tinybvh_bvh8"


def mesh_rays(figures):
    index = Index(figures, ["case", "threads", "backend", "metric"])
    cases = distinct(f["case"] for f in figures if f.get("rays"))
    builds = distinct(f["case"] for f in figures if not f.get("rays"))
    all_threads = max([f.get("threads", 1) for f in figures] + [1])
    tinybvh = any(f["backend"] == TINYBVH and f.get("metric") == "mrays_per_s" for f in figures)
    rates = [f for f in figures if f.get("metric") == "mrays_per_s" and f.get("backend") == "hitscan"]
    ray_counts = [f"{rays} {count(n)}" for rays in distinct(f["rays"] for f in rates)
                  for n in distinct(f["ray_count"] for f in rates if f["rays"] == rays)]
    out = ["`hitscan_mesh_bench`: hitscan's `MeshBvh` beside Embree 3 (build quality MEDIUM and HIGH, "
           "`rtcIntersect1` / `rtcOccluded1`, 8-ray packets on the camera images)"
           + (", tinybvh's `BVH8_CPU` (built by `BuildHQ`, SAH with spatial splits; `Intersect` / `IsOccluded`)" if tinybvh else "")
           + ", Bullet (`btBvhTriangleMeshShape`) and brute force, in one process on the same rays. Every "
           "mesh gets a pinhole camera outside it (coherent), rays from uniform origins in the bounds in "
           "uniform directions (incoherent), and the same as an any-hit query. The game levels also get a "
           "shooter's rays from players standing on their floors: `view`, 90° camera images from 16 players' "
           "eyes (closest hits, tiled like the coherent set); `shots`, closest hits from random players in "
           "random directions within 30° of level; `sight`, any hit on the segment between two players' eyes "
           "(line of sight). hitscan's closest hits fill the record the baselines give (distance, "
           "barycentrics, triangle; `HitFields::basic`), without the hit point and unit normals. "
           "Medians of round-robin repetitions; every backend's answers are checked ray by "
           "ray against hitscan's. Brute force runs on a subset of the rays, on meshes up to 200k triangles."
           + (f" Rays per set: {', '.join(ray_counts)}." if ray_counts else "") + "\n"]

    def label(case):
        mesh, rays, query = case.split("/")
        return f"{mesh} {MESH_RAY_SETS.get((rays, query), f'{rays} {query}')}"

    # The meshes, their kinds and the ray sets they are asked.
    rows = []
    for mesh in distinct(f["mesh"] for f in figures if f.get("mesh")):
        sets = distinct(f["rays"] for f in figures if f.get("mesh") == mesh and f.get("rays"))
        kind = "Quake 3 level (`openarena-081-maps`)" if any(s in SHOOTER_SETS for s in sets) else MESH_KINDS.get(mesh, "")
        tris = next((f["tris"] for f in figures if f.get("mesh") == mesh and "tris" in f), None)
        rows.append([mesh, kind, count(tris) if tris is not None else "", ", ".join(sets)])
    out.append("\n#### Meshes\n\n")
    out.append(table(["mesh", "kind", "triangles", "ray sets"], rows, ["l", "l", "r", "l"]))

    # Against Embree HIGH, the reference for speed, and tinybvh, on 1 and all threads; packets beside
    # packets (tinybvh has none).
    def against(case, threads, ours, theirs, tiny):
        h, e = (index.get(case=case, threads=threads, backend=b, metric="mrays_per_s") for b in (ours, theirs))
        row = [num(h), num(e), ratio(h, e)]
        if tinybvh:
            t = index.get(case=case, threads=threads, backend=TINYBVH, metric="mrays_per_s") if tiny else None
            row += [num(t), ratio(h, t)]
        return row

    rows = []
    for case in cases:
        for ours, theirs, suffix in (("hitscan", "embree_high", ""), ("hitscan_stream", "embree_high_stream", ", stream"),
                                     ("hitscan_packet64", "embree_high_packet8", ", packets")):
            if None in (index.get(case=case, threads=1, backend=b, metric="mrays_per_s") for b in (ours, theirs)):
                continue
            row = [label(case) + suffix] + against(case, 1, ours, theirs, not suffix)
            if all_threads > 1:
                row += against(case, all_threads, ours, theirs, not suffix)
            rows.append(row)

    header = ["case", "hitscan Mrays/s", "Embree HIGH Mrays/s", "ratio, 1 thread"]
    header += ["tinybvh Mrays/s", "hitscan / tinybvh, 1 thread"] if tinybvh else []
    if all_threads > 1:
        n = f", {all_threads} threads"
        header += [f"hitscan{n}", f"Embree HIGH{n}", f"ratio{n}"] + ([f"tinybvh{n}", f"hitscan / tinybvh{n}"] if tinybvh else [])
    out.append("\n#### Against Embree HIGH" + (" and tinybvh" if tinybvh else "")
               + "\n\nRatio = hitscan / Embree" + (" and hitscan / tinybvh" if tinybvh else "")
               + " (above 1: hitscan faster). The stream rows pass each thread's share of the set in one call: "
               "`MeshBvh::intersect_batch` / `occluded_batch` (which trace the rays ordered by their origins when "
               "the tree is larger than 32 MiB) beside Embree's `rtcIntersect1M` / `rtcOccluded1M`. The packet rows "
               "set hitscan's 64-ray packets (`MeshBvh::intersect_coherent`, one per 8×8 tile) beside Embree's 8-ray "
               "packets (`rtcIntersect8`, one per 4×2 sub-tile of the same tiles).\n\n")
    out.append(table(header, rows))

    # Every baseline, one thread.
    others = [b for b in ("embree_medium", "embree_high", TINYBVH, "bullet", "brute_force")
              if any(f["backend"] == b and f.get("metric") == "mrays_per_s" for f in figures)]
    rows = []
    for case in cases:
        h = index.get(case=case, threads=1, backend="hitscan", metric="mrays_per_s")
        if h is None:
            continue
        rows.append([label(case), num(h)] + [ratio(h, index.get(case=case, threads=1, backend=b, metric="mrays_per_s")) for b in others])
    out.append("\n#### hitscan against every baseline, 1 thread\n\nhitscan's Mrays/s and its speed over each "
               "backend's in the same run (above 1: hitscan faster).\n\n")
    out.append(table(["case", "hitscan Mrays/s"] + [f"vs {b}" for b in others], rows))

    # Cross-check.
    rows = []
    for case in cases:
        for b in distinct(f["backend"] for f in figures if f["case"] == case and f.get("metric") == "disagreements"):
            fig = index.figure(case=case, threads=1, backend=b, metric="disagreements")
            if fig and fig.get("value"):
                rows.append([label(case), b, count(fig["value"])])
    out.append("\n#### Answers that differ from hitscan's\n\n")
    out.append(table(["case", "backend", "rays"], rows, ["l", "l", "r"]) if rows else "None: every backend agreed with hitscan on every ray.\n")

    # Builds and memory.
    def build(case, backend, metric="build_ms"):
        return index.get(case=case, threads=1, backend=backend, metric=metric)

    rows = []
    for case in builds:
        mesh = case.split("/")[0]
        tris = index.figure(case=case, threads=1, backend="hitscan", metric="build_ms")
        hb, mb, hb_high, bb = (build(case, b) for b in ("hitscan", "embree_medium", "embree_high", "bullet"))
        row = [mesh, count(tris["tris"]) if tris and "tris" in tris else "", num(hb), num(mb), ratio(mb, hb), num(hb_high),
               ratio(hb_high, hb)]
        if tinybvh:
            row += [num(build(case, TINYBVH)), ratio(build(case, TINYBVH), hb)]
        row += [num(bb), num(build(case, "hitscan", "bytes_per_tri")), num(build(case, "embree_high", "bytes_per_tri"))]
        if tinybvh:
            row.append(num(build(case, TINYBVH, "bytes_per_tri")))
        rows.append(row)
    header = ["mesh", "triangles", "hitscan ms", "Embree MEDIUM ms", "speed vs MEDIUM", "Embree HIGH ms", "speed vs HIGH"]
    header += ["tinybvh ms", "speed vs tinybvh"] if tinybvh else []
    header += ["Bullet ms", "hitscan B/tri", "Embree HIGH B/tri"] + (["tinybvh B/tri"] if tinybvh else [])
    out.append("\n#### Builds, 1 thread\n\nMilliseconds (median of the builds); speed = the other's time / hitscan's "
               "(above 1: hitscan builds faster); memory in bytes per triangle"
               + (" (tinybvh's: the `BVH8_CPU` data, the trees it is converted from, which it keeps, and its triangle array)" if tinybvh else "")
               + ".\n\n")
    out.append(table(header, rows))
    title = "Meshes: hitscan against Embree, " + ("tinybvh, " if tinybvh else "") + "Bullet and brute force"
    return title, "".join(out)


def watertight(figures):
    index = Index(figures, ["mesh", "backend", "metric"])
    others = [b for b in distinct(f["backend"] for f in figures) if b != "hitscan"]
    rows = []
    for mesh in distinct(f["mesh"] for f in figures):
        any_fig = next(f for f in figures if f["mesh"] == mesh)
        rays = any_fig.get("rays")
        row = [mesh, count(any_fig["tris"]) if "tris" in any_fig else "", count(rays) if rays else "",
               count(index.get(mesh=mesh, backend="hitscan", metric="escapes") or 0),
               count(index.get(mesh=mesh, backend="hitscan", metric="even_crossings") or 0)]
        for b in others:
            escapes = index.get(mesh=mesh, backend=b, metric="escapes")
            row.append("" if escapes is None else count(escapes) + (f" ({100 * escapes / rays:.1f}%)" if rays else ""))
        rows.append(row)
    body = ("Rays from points inside closed meshes, a third aimed exactly at a vertex, a third exactly at an "
            "edge's midpoint, a third in random directions, through hitscan's closest-hit and all-hits queries "
            "and Embree's `rtcIntersect1`. A ray from inside a closed surface must hit it (an escape is a ray "
            "that slipped through a crack) and cross it an odd number of times.\n\n")
    header = ["mesh", "triangles", "rays", "hitscan escapes", "hitscan even crossings"] + [f"{b} escapes" for b in others]
    return "Watertightness, hitscan and Embree side by side", body + table(header, rows)


def contacts(figures):
    index = Index(figures, ["objects", "backend", "metric"])
    sizes = distinct(f["objects"] for f in figures)
    backends = distinct(f["backend"] for f in figures)
    baselines = [b for b in backends if b.startswith("bullet") or b == "jolt"]
    ours = [b for b in backends if b not in baselines]
    rows = []
    for b in backends:
        rows.append([b] + [num(index.get(objects=n, backend=b, metric="ms_per_pass")) for n in sizes])
    pairs = []
    for n in sizes:  # the pairs found by the first of hitscan's backends that ran at this size
        found = [index.get(objects=n, backend=b, metric="pairs") for b in ours]
        found = [p for p in found if p is not None]
        pairs.append(count(found[0]) if found else "")
    rows.append(["*touching pairs*"] + pairs)
    out = ["`hitscan_contacts_bench`: n / 2 spheres and n / 2 boxes (half of them rotated), radii and half "
           "extents in [0.5, 5], at the same density at every size, moving slightly each pass; one pass finds "
           "every touching sphere–box pair and its contact. hitscan's backends beside Bullet's collision world "
           "(its dedicated sphere–box algorithm and GJK; warm, and `_scratch` built anew each pass)"
           + (" and Jolt's `PhysicsSystem` (boxes as static bodies moved with `SetPosition`, `Update`, one "
              "`CollideShape` per sphere; GJK/EPA, Jolt has no sphere–box routine)" if "jolt" in baselines else "")
           + ". Backends alternate; medians; one thread. Milliseconds per pass:\n\n",
           table(["backend"] + [f"{count(n)} objects" for n in sizes], rows)]
    rows = []
    for n in sizes:
        agreeing = [b for b in ours if index.get(objects=n, backend=b, metric="ms_per_pass") is not None
                    and index.get(objects=n, backend=b, metric="disagreements") in (0.0, None)]
        if not agreeing:
            continue
        best = min(agreeing, key=lambda b: index.get(objects=n, backend=b, metric="ms_per_pass"))
        ms = index.get(objects=n, backend=best, metric="ms_per_pass")
        rows.append([count(n), f"`{best}`", num(ms)] + [ratio(index.get(objects=n, backend=b, metric="ms_per_pass"), ms) for b in baselines])
    out.append("\nhitscan's fastest backend that agrees with brute force, and its speed-up over each baseline "
               "in the same run (the baseline's time / hitscan's):\n\n")
    out.append(table(["objects", "hitscan's fastest", "ms per pass"] + [f"vs {b}" for b in baselines], rows,
                     ["r", "l", "r"] + ["r"] * len(baselines)))
    return "Contacts: hitscan against Bullet" + (" and Jolt" if "jolt" in baselines else ""), "".join(out)


def scene_speedup(h, o):
    if h is None or o is None or h.get("value") is None or o.get("value") is None:
        return ""
    hv, ov = float(h["value"]), float(o["value"])
    return ratio(ov, hv) if h.get("metric") == "ms" else ratio(hv, ov)


def scene(figures):
    index = Index(figures, ["colliders", "query", "threads", "backend"])
    sizes = distinct(f["colliders"] for f in figures)
    names = {"raycast": "raycast", "raycast_any": "raycast, any hit", "raycast_all": "raycast, all hits", "overlap_sphere": "overlap sphere", "sphere_cast": "sphere cast",
             "capsule_cast": "capsule cast", "move_commit": "1% teleported, commit", "move_drift_commit": "10% drifting 0.1 a frame, commit"}
    # Jolt is an optional baseline: its columns appear when the run compared it.
    jolt = any(f["backend"] == "jolt" for f in figures)
    rows = []
    for n in sizes:
        for f in figures:
            if f["colliders"] != n or f["backend"] != "hitscan" or f["query"] not in names:
                continue
            b = index.figure(colliders=n, query=f["query"], threads=f["threads"], backend="bullet")
            j = index.figure(colliders=n, query=f["query"], threads=f["threads"], backend="jolt")
            bf = index.figure(colliders=n, query=f["query"], threads=f["threads"], backend="brute_force")
            unit = " ms" if f.get("metric") == "ms" else " /s"
            thr = f", {f['threads']} thread{'s' if f['threads'] != 1 else ''}" if f["query"] == "raycast" else ""
            row = [count(n), names[f["query"]] + thr, num(f["value"]) + unit,
                   num(b["value"]) + unit if b else "", scene_speedup(f, b)]
            if jolt:
                row += [num(j["value"]) + unit if j else "", scene_speedup(f, j)]
            rows.append(row + [num(bf["value"]) + unit if bf else "", scene_speedup(f, bf)])
    header = (["colliders", "query", "hitscan", "Bullet", "vs Bullet"] + (["Jolt", "vs Jolt"] if jolt else [])
              + ["brute force", "vs brute force"])
    out = ["`hitscan_scene_bench`: colliders (spheres, rotated boxes, capsules, cylinders and instances of one "
           "mesh) in a cube whose side grows with the cube root of the count, the same colliders in a "
           "`hitscan::Scene`, in Bullet's `btCollisionWorld` (`btDbvtBroadphase`, margins zero)"
           + (" and in Jolt's `PhysicsSystem` (static bodies, `NarrowPhaseQuery`, convex radii zero)" if jolt else "")
           + ", asked the same rays, spheres and sweeps; every answer is checked against brute force before timing. "
           "Rounds alternate the backends; medians. Speed-up = hitscan over the other (rate ratio for queries, time "
           "ratio for moves). hitscan's target: every query at least 3× Bullet.\n\n",
           table(header, rows, ["r", "l"] + ["r"] * (len(header) - 2))]
    moves = [q for q in distinct(f["query"] for f in figures) if q.startswith("move_") and q.endswith("pct_commit")]
    moves.sort(key=lambda q: float(q[len("move_"):-len("pct_commit")]))
    rows = []
    for n in sizes:
        row = [count(n)]
        for q in moves:
            f = index.figure(colliders=n, query=q, threads=1, backend="hitscan")
            if not f:
                row.append("")
                continue
            each = f" ({num(1e3 * float(f['value']) / f['batch'])} µs each)" if f.get("batch") else ""
            row.append(num(f["value"]) + " ms" + each)
        rows.append(row)
    if moves:
        out.append("\n**Moves.** A commit's cost with 0.1%, 1%, 10% and 100% of the colliders moved to random "
                   "places (hitscan alone; from half of the colliders on, a commit rebuilds the tree):\n\n")
        out.append(table(["colliders"] + [q[len("move_"):-len("pct_commit")] + "% moved" for q in moves], rows))
    title = "Scenes: hitscan against Bullet's collision world" + (" and Jolt" if jolt else "")
    return title, "".join(out)


def ar(figures):
    index = Index(figures, ["case", "threads", "backend"])
    threads = sorted(distinct(f["threads"] for f in figures))
    cases = distinct(f["case"] for f in figures if f["backend"] == "hitscan")
    tris = distinct(f["tris"] for f in figures if "tris" in f)
    frame_cases = [c for c in cases if c.startswith("drape_")] + [c for c in ("occlusion_objects", "chunk_update") if c in cases]
    rows = []
    for c in cases:
        rows.append([f"`{c}`"] + [num(index.get(case=c, threads=t, backend="hitscan")) for t in threads])
        if frame_cases and c == frame_cases[-1]:
            sums = []
            for t in threads:
                parts = [index.get(case=x, threads=t, backend="hitscan") for x in frame_cases]
                sums.append(num(sum(parts)) if None not in parts else "")
            rows.append(["the three together"] + sums)
    for b in distinct(f["backend"] for f in figures if f["backend"] != "hitscan"):
        for c in distinct(f["case"] for f in figures if f["backend"] == b):
            rows.append([f"the same `{c}`, {b}"] + [num(index.get(case=c, threads=t, backend=b)) for t in threads])
    out = ["`hitscan_ar_bench`: an AR frame's work on the generated street"
           + (f" ({', '.join(count(t) for t in tris)} triangles in chunks of 5 m)" if tris else "")
           + ": draping a 100 m route, the occlusion test of the pixels the virtual content covers, one chunk "
           "rescanned (refit) and recommitted, and a 640×480 depth map by ray casting, with Embree 3 on the "
           "same frame as the depth map's baseline (one scene over the chunks, build quality HIGH; "
           "`rtcIntersect1`, 8 and 16). Every case is checked first; medians of round-robin rounds, "
           "milliseconds per frame:\n\n",
           table(["case"] + [f"{t} thread{'s' if t != 1 else ''}, ms" for t in threads], rows)]
    rows = []
    for b in distinct(f["backend"] for f in figures if f["backend"] != "hitscan"):
        for c in distinct(f["case"] for f in figures if f["backend"] == b):
            rows.append([f"`{c}` vs {b}"] + [ratio(index.get(case=c, threads=t, backend=b), index.get(case=c, threads=t, backend="hitscan")) for t in threads])
    if rows:
        out.append("\nhitscan's speed over each baseline on the same frame (their time / hitscan's, same run):\n\n")
        out.append(table(["case"] + [f"{t} thread{'s' if t != 1 else ''}" for t in threads], rows))
    top = threads[-1] if threads else None
    if top is not None:
        parts = [index.get(case=x, threads=top, backend="hitscan") for x in frame_cases]
        depth = next((index.get(case=c, threads=top, backend="hitscan") for c in cases if c.startswith("depth_map_")), None)
        lines = []
        if frame_cases and None not in parts:
            lines.append(f"- {' + '.join(frame_cases)} under 5 ms: {num(sum(parts))} ms, "
                         + ("met" if sum(parts) < 5 else "not met"))
        if depth is not None:
            lines.append(f"- the depth map under 8 ms: {num(depth)} ms, " + ("met" if depth < 8 else "not met"))
        if lines:
            out.append(f"\nTargets at {top} thread{'s' if top != 1 else ''}:\n\n" + "\n".join(lines) + "\n")
    return "AR: one frame's work on a reconstructed street", "".join(out)


def python(figures):
    index = Index(figures, ["query", "backend"])
    meshes = distinct(f"{f.get('mesh')} ({count(f['tris'])} triangles)" for f in figures if "tris" in f)
    rows = []
    for q in distinct(f["query"] for f in figures):
        h = index.figure(query=q, backend="hitscan")
        o = index.figure(query=q, backend="open3d")

        def cell(f):
            if f is None:
                return ""
            if f.get("status") != "ok" or f.get("value") is None:
                return f"broken ({100 * float(f.get('wrong_fraction_of_sample', 0)):.0f}% wrong)"
            return count(f["value"])

        both = h and o and h.get("value") is not None and o.get("value") is not None
        rows.append([f"`{q}`", cell(h), cell(o), ratio(float(h["value"]), float(o["value"])) if both else ""])
    body = ("`bench/python_bench.py`: the same queries through hitscan's Python module and Open3D's "
            "`RaycastingScene` (Debian's `python3-open3d`)"
            + (f" on {', '.join(meshes)}" if meshes else "")
            + ", both on all cores. Each backend's answers on a sample are first checked against brute force "
            "in numpy; a backend that answers wrongly is reported as broken and not timed. Queries per second, "
            "median of alternating repetitions:\n\n")
    return "Python: hitscan against Open3D's RaycastingScene", body + table(["query", "hitscan", "Open3D", "hitscan / Open3D"], rows)


def structures(figures):
    index = Index(figures, ["scene", "structure", "query"])
    structures_ = distinct(f["structure"] for f in figures)
    others = [s for s in structures_ if s != "bvh"]
    rows = []
    for sc in distinct(f["scene"] for f in figures):
        objects = next((f["objects"] for f in figures if f["scene"] == sc and "objects" in f), None)
        row = [f"{sc}, {count(objects)}" if objects else sc]
        for q in distinct(f["query"] for f in figures if f["scene"] == sc):
            bvh = index.figure(scene=sc, structure="bvh", query=q)
            if bvh is None:
                row.append("")
                continue
            unit = " ms" if bvh.get("metric") == "build_ms" else " /s"
            parts = []
            for s in others:
                f = index.figure(scene=sc, structure=s, query=q)
                if f is None:
                    continue
                speed = f.get("speed_vs_bvh")
                if speed is None and f.get("value"):
                    speed = (float(bvh["value"]) / float(f["value"])) if unit == " ms" else (float(f["value"]) / float(bvh["value"]))
                parts.append(f"{s.replace('_', ' ')} {ratio(float(speed), 1.0)}")
            row.append(f"BVH {num(bvh['value'])}{unit}; " + ", ".join(parts))
        rows.append(row)
    queries = distinct(f["query"] for f in figures)
    body = ("`hitscan_structures_bench`: the static BVH, the loose `Octree`, the `UniformGrid` and the "
            "`DynamicTree` built over the same object boxes and asked the same rays (the box each enters first) "
            "and overlap boxes; every answer is checked against the BVH's before timing. Medians of round-robin "
            "rounds; each structure's speed relative to the BVH in the same run (above 1: faster).\n\n")
    return "Structures: BVH, octree, grid", body + table(["scene, objects"] + queries, rows, ["l"] * (1 + len(queries)))


def generic(figures):
    keys = distinct(k for f in figures for k in f if k not in ("suite", "value", "simd"))
    rows = [[str(f.get(k, "")) for k in keys] + [num(f.get("value"))] for f in figures]
    return None, table(keys + ["value"], rows, ["l"] * len(keys) + ["r"])


SECTIONS = [  # suites in the order of `make bench`; ray_kernels and ray_packs share a table
    (("ray_kernels", "ray_packs"), ray_kernels),
    (("mesh_rays",), mesh_rays),
    (("watertight",), watertight),
    (("contacts",), contacts),
    (("scene",), scene),
    (("python",), python),
    (("ar",), ar),
    (("structures",), structures),
]


def render(figures, source, cpu):
    suites = by_suite(figures)
    out = ["# hitscan benchmarks\n\n",
           f"Generated by `/usr/bin/python3 scripts/bench_tables.py {source}` from the JSON lines that "
           "`make bench` writes; regenerate it after `make bench` rather than editing it by hand. Every ratio "
           "compares two medians of the same run on the same machine.\n"]
    done = set()
    for names, make in SECTIONS:
        group = [f for n in names for f in suites.get(n, [])]
        if not group:
            continue
        done.update(names)
        try:
            title, body = make(group)
        except (KeyError, TypeError, ValueError, StopIteration, ZeroDivisionError) as e:
            # Figures of a shape this script does not know yet: listed as they are, not lost.
            print(f"bench_tables: {'/'.join(names)}: {e!r}; listing its figures as they are", file=sys.stderr)
            title, body = f"Suite `{'/'.join(names)}`", generic(group)[1]
        out.append(f"\n## {title}\n\n{machine_line(group, cpu)}\n{body}")
    for name, group in suites.items():
        if name in done:
            continue
        _, body = generic(group)
        out.append(f"\n## Suite `{name}`\n\n{machine_line(group, cpu)}\n{body}")
    return "".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("input", nargs="?", default=DEFAULT_INPUT, help=f"JSON lines (default {DEFAULT_INPUT})")
    parser.add_argument("output", nargs="?", default=DEFAULT_OUTPUT, help=f"Markdown to write (default {DEFAULT_OUTPUT})")
    parser.add_argument("--cpu", help="the CPU model the figures were measured on (default: this machine's)")
    args = parser.parse_args()
    if not os.path.exists(args.input):
        raise SystemExit(f"bench_tables: {args.input} does not exist; run `make bench` first")
    figures = read_lines(args.input)
    if not figures:
        raise SystemExit(f"bench_tables: {args.input} holds no figures")
    text = render(figures, args.input, args.cpu or machine_cpu())
    directory = os.path.dirname(os.path.abspath(args.output))
    os.makedirs(directory, exist_ok=True)
    temporary = args.output + ".tmp"
    with open(temporary, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(temporary, args.output)
    print(f"bench_tables: {len(figures)} figures from {args.input} -> {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
