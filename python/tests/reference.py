"""Independent references for the Python tests: brute force over every triangle, in float64 numpy.

Nothing here calls hitscan: rays go through a Moller-Trumbore test of every triangle, closest
points through Ericson's region test (Real-Time Collision Detection, 5.1.5) against every triangle,
winding numbers through Van Oosterom and Strackee's solid angle of every triangle.
"""

import numpy as np


def icosphere(subdivisions=3, radius=1.0, center=(0.0, 0.0, 0.0)):
    """A closed sphere mesh, triangles counter-clockwise seen from outside: (vertices float32, triangles uint32)."""
    t = (1.0 + 5.0 ** 0.5) / 2.0
    vertices = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t), (0, -1, -t), (0, 1, -t),
                (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    faces = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2),
             (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5), (2, 4, 11),
             (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    vertices = [np.array(v, float) / np.linalg.norm(v) for v in vertices]
    for _ in range(subdivisions):
        midpoint = {}

        def middle(i, j):
            key = (min(i, j), max(i, j))
            if key not in midpoint:
                m = vertices[i] + vertices[j]
                vertices.append(m / np.linalg.norm(m))
                midpoint[key] = len(vertices) - 1
            return midpoint[key]

        refined = []
        for a, b, c in faces:
            ab, bc, ca = middle(a, b), middle(b, c), middle(c, a)
            refined += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        faces = refined
    v = np.array(vertices) * radius + np.asarray(center, float)
    return v.astype(np.float32), np.array(faces, np.uint32)


def grid_mesh(n=8, size=1.0, z=0.0):
    """A flat square [0, size]^2 at height z facing +z, as an (n x n) grid of quads split in two."""
    xs = np.linspace(0.0, size, n + 1)
    gx, gy = np.meshgrid(xs, xs, indexing="ij")
    v = np.stack([gx.ravel(), gy.ravel(), np.full(gx.size, z)], axis=1).astype(np.float32)
    faces = []
    for i in range(n):
        for j in range(n):
            a, b, c, d = i * (n + 1) + j, (i + 1) * (n + 1) + j, (i + 1) * (n + 1) + j + 1, i * (n + 1) + j + 1
            faces += [(a, b, c), (a, c, d)]
    return v, np.array(faces, np.uint32)


def corners(vertices, triangles):
    v = np.asarray(vertices, np.float64)
    f = np.asarray(triangles, np.int64)
    return v[f[:, 0]], v[f[:, 1]], v[f[:, 2]]


def ray_triangle(rays, vertices, triangles):
    """Every ray against every triangle: (t, u, v, margin), each (N, F) float64; t is inf where
    there is no hit with t >= 0, margin the smallest barycentric of where the ray meets the
    triangle's plane ahead (how far inside, or outside when negative, its edges), -1 elsewhere."""
    rays = np.asarray(rays, np.float64).reshape(-1, 6)
    a, b, c = corners(vertices, triangles)
    e1, e2 = b - a, c - a
    o, d = rays[:, None, :3], rays[:, None, 3:]
    with np.errstate(all="ignore"):
        p = np.cross(d, e2[None])
        det = np.einsum("nfk,fk->nf", p, e1)
        inv = 1.0 / det
        s = o - a[None]
        u = np.einsum("nfk,nfk->nf", s, p) * inv
        q = np.cross(s, e1[None])
        v = np.einsum("nfk,nfk->nf", d, q) * inv
        t = np.einsum("fk,nfk->nf", e2, q) * inv
        margin = np.minimum(np.minimum(u, v), 1.0 - u - v)
        ahead = (np.abs(det) > 1e-300) & (t >= 0) & np.isfinite(t)
        ok = ahead & (margin >= 0)
    return np.where(ok, t, np.inf), u, v, np.where(ahead, margin, -1.0)


def first_hits(rays, vertices, triangles, block=256):
    """Nearest hit per ray: (t, triangle (-1 on a miss), u, v, margin, second-nearest t)."""
    rays = np.asarray(rays, np.float64).reshape(-1, 6)
    n = len(rays)
    out_t, out_f = np.full(n, np.inf), np.full(n, -1, np.int64)
    out_u, out_v, out_m, out_t2 = np.zeros(n), np.zeros(n), np.zeros(n), np.full(n, np.inf)
    for start in range(0, n, block):
        t, u, v, margin = ray_triangle(rays[start:start + block], vertices, triangles)
        if t.shape[1] == 0:
            continue
        rows = np.arange(len(t))
        best = np.argmin(t, axis=1)
        sl = slice(start, start + len(t))
        out_t[sl] = t[rows, best]
        out_f[sl] = np.where(np.isfinite(t[rows, best]), best, -1)
        out_u[sl], out_v[sl], out_m[sl] = u[rows, best], v[rows, best], margin[rows, best]
        out_t2[sl] = np.partition(t, 1, axis=1)[:, 1] if t.shape[1] > 1 else np.inf
    return out_t, out_f, out_u, out_v, out_m, out_t2


def closest_on_triangles(p, a, b, c):
    """Closest point of each triangle to each point: (points (N, F, 3), u (N, F), v (N, F)) with
    point = (1-u-v) a + u b + v c. Ericson's regions, applied in reverse priority so the first wins."""
    p = np.asarray(p, np.float64)[:, None, :]
    a, b, c = a[None], b[None], c[None]
    ab, ac = b - a, c - a
    dot = lambda x, y: np.sum(x * y, axis=-1)
    ap, bp, cp = p - a, p - b, p - c
    d1, d2, d3, d4, d5, d6 = dot(ab, ap), dot(ac, ap), dot(ab, bp), dot(ac, bp), dot(ab, cp), dot(ac, cp)
    va, vb, vc = d3 * d6 - d5 * d4, d5 * d2 - d1 * d6, d1 * d4 - d3 * d2
    with np.errstate(all="ignore"):
        denom = va + vb + vc
        u, v = vb / denom, vc / denom  # face
        w_bc = (d4 - d3) / ((d4 - d3) + (d5 - d6))
        regions = [  # lowest priority first
            ((va <= 0) & (d4 - d3 >= 0) & (d5 - d6 >= 0), 1.0 - w_bc, w_bc),
            ((vb <= 0) & (d2 >= 0) & (d6 <= 0), 0.0, d2 / (d2 - d6)),
            ((d6 >= 0) & (d5 <= d6), 0.0, 1.0),
            ((vc <= 0) & (d1 >= 0) & (d3 <= 0), d1 / (d1 - d3), 0.0),
            ((d3 >= 0) & (d4 <= d3), 1.0, 0.0),
            ((d1 <= 0) & (d2 <= 0), 0.0, 0.0),
        ]
        for mask, ru, rv in regions:
            u = np.where(mask, ru, u)
            v = np.where(mask, rv, v)
    points = a + ab * u[..., None] + ac * v[..., None]
    return points, u, v


def closest_points(points, vertices, triangles, block=128):
    """Nearest point of the mesh to each point: (distance, point, triangle, u, v)."""
    points = np.asarray(points, np.float64).reshape(-1, 3)
    a, b, c = corners(vertices, triangles)
    n = len(points)
    out_d, out_p, out_f = np.full(n, np.inf), np.zeros((n, 3)), np.full(n, -1, np.int64)
    out_u, out_v = np.zeros(n), np.zeros(n)
    for start in range(0, n, block):
        q = points[start:start + block]
        cp, u, v = closest_on_triangles(q, a, b, c)
        dist = np.linalg.norm(cp - q[:, None, :], axis=-1)
        best = np.argmin(dist, axis=1)
        rows = np.arange(len(q))
        sl = slice(start, start + len(q))
        out_d[sl], out_p[sl], out_f[sl] = dist[rows, best], cp[rows, best], best
        out_u[sl], out_v[sl] = u[rows, best], v[rows, best]
    return out_d, out_p, out_f, out_u, out_v


def winding_numbers(points, vertices, triangles, block=256):
    """Exact generalised winding number of the mesh at each point (sum of solid angles / 4 pi)."""
    points = np.asarray(points, np.float64).reshape(-1, 3)
    a0, b0, c0 = corners(vertices, triangles)
    out = np.zeros(len(points))
    for start in range(0, len(points), block):
        q = points[start:start + block, None, :]
        a, b, c = a0[None] - q, b0[None] - q, c0[None] - q
        la, lb, lc = (np.linalg.norm(x, axis=-1) for x in (a, b, c))
        num = np.sum(a * np.cross(b, c), axis=-1)
        den = la * lb * lc + np.sum(a * b, -1) * lc + np.sum(b * c, -1) * la + np.sum(c * a, -1) * lb
        out[start:start + block] = np.sum(2.0 * np.arctan2(num, den), axis=1) / (4.0 * np.pi)
    return out


def triangle_normals(vertices, triangles):
    a, b, c = corners(vertices, triangles)
    n = np.cross(b - a, c - a)
    return n / np.linalg.norm(n, axis=1, keepdims=True)


def random_rays(rng, n, target_radius=1.0, distance=3.0, scale_directions=True):
    """Rays from a sphere of radius `distance` towards random points within target_radius of the
    origin; directions scaled by random lengths so that t's unit is exercised."""
    origins = rng.normal(size=(n, 3))
    origins *= distance / np.linalg.norm(origins, axis=1, keepdims=True)
    targets = rng.uniform(-target_radius, target_radius, size=(n, 3))
    d = targets - origins
    if scale_directions:
        d *= rng.uniform(0.2, 3.0, size=(n, 1)) / np.linalg.norm(d, axis=1, keepdims=True)
    return np.hstack([origins, d]).astype(np.float32)


def assert_first_hits_match(scene, rays, vertices, triangles):
    """scene.cast_rays(rays) against brute force over one mesh: the same rays hit, at t equal
    within float32 rounding."""
    t = first_hits(rays, vertices, triangles)[0]
    got = scene.cast_rays(rays)["t_hit"]
    hit = np.isfinite(t)
    np.testing.assert_array_equal(np.isfinite(got), hit)
    np.testing.assert_allclose(got[hit], t[hit], rtol=1e-5, atol=1e-6)
