"""Analytic shapes, sphere casts, sphere overlaps and route draping against exact formulas."""

import unittest

import numpy as np

import hitscan
import reference as ref

INVALID = 4294967295


def ray_sphere(rays, center, radius):
    """Exact first t (units of the direction's length) of rays against a solid sphere; 0 inside."""
    o, d = rays[:, :3].astype(np.float64) - center, rays[:, 3:].astype(np.float64)
    a, b, c = np.sum(d * d, 1), np.sum(o * d, 1), np.sum(o * o, 1) - radius * radius
    disc = b * b - a * c
    with np.errstate(invalid="ignore"):
        t = (-b - np.sqrt(disc)) / a
        t_exit = (-b + np.sqrt(disc)) / a
    t = np.where(c <= 0, 0.0, t)
    return np.where((disc >= 0) & (t_exit >= 0), t, np.inf)


def ray_box(rays, lo, hi):
    o, d = rays[:, :3].astype(np.float64), rays[:, 3:].astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        t1, t2 = (lo - o) / d, (hi - o) / d
    near = np.max(np.minimum(t1, t2), 1)
    far = np.min(np.maximum(t1, t2), 1)
    return np.where((near <= far) & (far >= 0), np.maximum(near, 0.0), np.inf)


class ShapeRaysTest(unittest.TestCase):
    def setUp(self):
        self.scene = hitscan.Scene()
        self.sphere = self.scene.add_sphere((0, 0, 0), 0.8)
        self.box = self.scene.add_box((3, 0, 0), (0.5, 0.7, 0.9))
        rng = np.random.default_rng(21)
        self.rays = ref.random_rays(rng, 3000, target_radius=1.0)
        self.rays[1500:, :3] += np.float32([3, 0, 0])  # half of them around the box

    def test_matches_exact_formulas(self):
        got = self.scene.cast_rays(self.rays)
        t_sphere = ray_sphere(self.rays, np.zeros(3), 0.8)
        t_box = ray_box(self.rays, np.array([2.5, -0.7, -0.9]), np.array([3.5, 0.7, 0.9]))
        want = np.minimum(t_sphere, t_box)
        hit = np.isfinite(want)
        self.assertGreater(np.count_nonzero(hit), 1000)
        np.testing.assert_array_equal(np.isfinite(got["t_hit"]), hit)
        np.testing.assert_allclose(got["t_hit"][hit], want[hit], rtol=1e-4, atol=1e-5)
        np.testing.assert_array_equal(got["geometry_ids"][hit], np.where(t_sphere < t_box, 0, 1)[hit])
        np.testing.assert_array_equal(got["primitive_ids"][hit], 0)  # one primitive each
        on_sphere = hit & (t_sphere < t_box) & (t_sphere > 0)  # not the rays that start inside
        points = self.rays[:, :3] + got["t_hit"][:, None] * self.rays[:, 3:]
        np.testing.assert_allclose(got["primitive_normals"][on_sphere], points[on_sphere] / 0.8, atol=1e-3)

    def test_ray_starting_inside_a_solid_hits_at_zero(self):
        rays = np.array([[0.1, 0, 0, 1, 0, 0], [3, 0, 0, 0, 1, 0]], np.float32)
        got = self.scene.cast_rays(rays)
        np.testing.assert_array_equal(got["t_hit"], [0, 0])
        np.testing.assert_array_equal(got["geometry_ids"], [self.sphere, self.box])
        # count_intersections sees shells: the sphere's exit, then the box's entry and exit; the box's exit.
        np.testing.assert_array_equal(self.scene.count_intersections(rays), [3, 1])


class SphereCastTest(unittest.TestCase):
    def test_against_a_sphere_and_a_floor(self):
        scene = hitscan.Scene()
        scene.add_sphere((0, 0, 0), 1.0)
        v, f = ref.grid_mesh(4, size=10.0, z=-3.0)
        floor = scene.add_triangles(v - np.float32([5, 5, 0]), f)
        rng = np.random.default_rng(22)
        n = 2000
        origins = rng.uniform(-3, 3, size=(n, 3)).astype(np.float32)
        origins[:, 2] = 4.0
        directions = np.tile(np.float32([0, 0, -2.0]), (n, 1))
        radius = rng.uniform(0.05, 0.5, size=n).astype(np.float32)
        got = scene.sphere_cast(origins, directions, radius)
        # Exact: the centre's ray against the sphere grown by the radius, and the plane z = -3 + r.
        rays = np.hstack([origins, np.tile([0, 0, -1], (n, 1))]).astype(np.float64)
        to_sphere = np.array([ray_sphere(rays[i:i + 1], np.zeros(3), 1.0 + radius[i])[0] for i in range(n)])
        to_floor = 4.0 - (-3.0 + radius)
        want = np.minimum(to_sphere, to_floor)
        np.testing.assert_allclose(got["distance"], want, rtol=1e-4, atol=1e-4)
        on_floor = to_floor < to_sphere - 1e-3
        np.testing.assert_array_equal(got["geometry_ids"][on_floor], floor)
        np.testing.assert_allclose(got["points"][on_floor, 2], -3.0, atol=1e-4)
        np.testing.assert_allclose(got["normals"][on_floor], np.tile([0, 0, 1], (np.count_nonzero(on_floor), 1)),
                                   atol=1e-3)
        self.assertGreater(np.count_nonzero(~on_floor), 200)
        self.assertFalse(got["started_inside"].any())
        limited = scene.sphere_cast(origins, directions, radius, max_distance=2.0)
        np.testing.assert_array_equal(np.isfinite(limited["distance"]), want <= 2.0)

    def test_start_in_contact(self):
        scene = hitscan.Scene()
        scene.add_sphere((0, 0, 0), 1.0)
        got = scene.sphere_cast(np.float32([[0, 0, 1.2]]), np.float32([[1, 0, 0]]), np.float32([0.5]))
        self.assertEqual(got["distance"][0], 0.0)
        self.assertTrue(got["started_inside"][0])
        self.assertAlmostEqual(float(got["depth"][0]), 0.3, places=5)


class OverlapTest(unittest.TestCase):
    def test_matches_center_distances(self):
        scene = hitscan.Scene()
        rng = np.random.default_rng(23)
        centers = rng.uniform(-5, 5, size=(40, 3))
        radii = rng.uniform(0.2, 1.0, size=40)
        for c, r in zip(centers, radii):
            scene.add_sphere(c, r)
        for _ in range(200):
            q, qr = rng.uniform(-5, 5, size=3), rng.uniform(0.1, 1.5)
            gap = np.linalg.norm(centers - q, axis=1) - radii - qr
            got = scene.overlap_sphere(q, qr)
            self.assertEqual(got.dtype, np.uint32)
            decided = np.abs(gap) > 1e-3
            want = set(np.flatnonzero((gap <= 0) & decided))
            self.assertEqual(set(got.tolist()) & set(np.flatnonzero(decided)), want)

    def test_meshes_are_surfaces(self):
        scene = hitscan.Scene()
        mesh = scene.add_triangles(*ref.icosphere(2))
        self.assertEqual(len(scene.overlap_sphere((0, 0, 0), 0.5)), 0)  # wholly inside: touches no triangle
        np.testing.assert_array_equal(scene.overlap_sphere((0, 0, 0.9), 0.2), [mesh])


class DrapeTest(unittest.TestCase):
    def step_scene(self):
        """A floor at z = 0 for x < 2 and z = 0.3 for x > 2, joined by a vertical riser."""
        lower_v, lower_f = ref.grid_mesh(4, size=2.0, z=0.0)
        upper_v, upper_f = ref.grid_mesh(4, size=2.0, z=0.3)
        upper_v = upper_v + np.float32([2, 0, 0])
        riser_v = np.float32([[2, 0, 0], [2, 2, 0], [2, 2, 0.3], [2, 0, 0.3]])
        riser_f = np.uint32([[0, 1, 2], [0, 2, 3]])
        v = np.concatenate([lower_v, upper_v, riser_v])
        f = np.concatenate([lower_f, upper_f + len(lower_v), riser_f + len(lower_v) + len(upper_v)])
        scene = hitscan.Scene()
        return scene, scene.add_triangles(v, f)

    def test_follows_a_step(self):
        scene, floor = self.step_scene()
        route = np.float32([[0.5, 1, 1], [3.5, 1, 1]])
        got = scene.drape(route, gravity=(0, 0, -9.8), camera=(0.5, 1, 1.5), near_spacing=0.25, far_spacing=0.5)
        self.assertEqual(got["status"].dtype, np.uint8)
        np.testing.assert_array_equal(got["status"], hitscan.DRAPE_ON_SURFACE)
        np.testing.assert_array_equal(got["geometry_ids"], floor)
        x, z = got["points"][:, 0], got["points"][:, 2]
        np.testing.assert_allclose(got["points"][:, :2], got["route_points"][:, :2], atol=1e-5)
        np.testing.assert_allclose(z[x < 2 - 1e-4], 0.0, atol=1e-5)
        np.testing.assert_allclose(z[x > 2 + 1e-4], 0.3, atol=1e-5)
        self.assertEqual(got["distance"][0], 0.0)
        self.assertAlmostEqual(float(got["distance"][-1]), 3.0, places=5)
        self.assertTrue(np.all(np.diff(got["distance"]) > 0))
        # The step is bracketed by samples at most min_refine_spacing apart.
        below, above = x[z < 0.15].max(), x[z > 0.15].min()
        self.assertLessEqual(above - below, 0.02 + 1e-5)
        self.assertAlmostEqual(got["route_length"], 3.0, places=5)

    def test_reports_a_long_gap(self):
        v, f = ref.grid_mesh(4, size=1.0)
        scene = hitscan.Scene()
        scene.add_triangles(v, f)
        scene.add_triangles(v + np.float32([3, 0, 0]), f)  # floor at x in [0, 1] and [3, 4]
        route = np.float32([[0.5, 0.5, 0.5], [3.5, 0.5, 0.5]])
        got = scene.drape(route, max_gap=1.0)
        self.assertEqual(got["gaps"].shape, (1, 2))
        self.assertFalse(got["gaps_bridged"][0])
        np.testing.assert_allclose(got["gaps"][0], [0.5, 2.5], atol=0.03)
        inside = (got["route_points"][:, 0] > 1.05) & (got["route_points"][:, 0] < 2.95)
        np.testing.assert_array_equal(got["status"][inside], hitscan.DRAPE_NO_SURFACE)
        bridged = scene.drape(route, max_gap=5.0, gap_mode="hold_last")
        self.assertTrue(bridged["gaps_bridged"][0])
        self.assertFalse(np.any(bridged["status"] == hitscan.DRAPE_NO_SURFACE))


if __name__ == "__main__":
    unittest.main()
