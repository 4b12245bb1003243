"""Hostile input through Python: every case gives its documented result or a Python exception that
names the argument, never a crash."""

import unittest

import numpy as np

import hitscan
import reference as ref

INVALID = 4294967295
NAN, INF = np.nan, np.inf


def unit_scene():
    v, f = ref.icosphere(2)
    scene = hitscan.Scene()
    scene.add_triangles(v, f)
    scene.add_sphere((3, 0, 0), 0.5)
    return scene


class BadArraysTest(unittest.TestCase):
    def setUp(self):
        self.scene = unit_scene()

    def assert_raises_naming(self, exception, name, call, *args, **kwargs):
        with self.assertRaises(exception) as caught:
            call(*args, **kwargs)
        self.assertIn(name, str(caught.exception))

    def test_wrong_dtype_names_the_argument(self):
        rays = np.zeros((4, 6), np.int64)  # float64 and float16 are converted; integers are not floats
        for query in (self.scene.cast_rays, self.scene.test_occlusions, self.scene.count_intersections,
                      self.scene.list_intersections):
            self.assert_raises_naming(TypeError, "rays", query, rays)
        points = np.zeros((4, 3), np.int32)
        for query in (self.scene.compute_closest_points, self.scene.compute_distance,
                      self.scene.compute_signed_distance, self.scene.compute_occupancy):
            self.assert_raises_naming(TypeError, "query_points", query, points)
        self.assert_raises_naming(TypeError, "vertex_positions", self.scene.add_triangles, np.zeros((3, 3), bool),
                                  np.zeros((1, 3), np.uint32))
        self.assert_raises_naming(TypeError, "triangle_indices", self.scene.add_triangles, np.zeros((3, 3), np.float32),
                                  np.zeros((1, 3), np.float32))
        self.assert_raises_naming(TypeError, "rays", self.scene.cast_rays, "not rays")
        self.assert_raises_naming(TypeError, "rays", self.scene.cast_rays, np.zeros((2, 6), object))
        self.assert_raises_naming(TypeError, "rays", self.scene.cast_rays, np.zeros((2, 6), np.complex64))
        self.assert_raises_naming(TypeError, "origins", self.scene.sphere_cast, np.zeros((2, 3), np.int32),
                                  np.ones((2, 3), np.float32), 0.1)
        self.assert_raises_naming(TypeError, "radius", self.scene.sphere_cast, np.zeros((2, 3), np.float32),
                                  np.ones((2, 3), np.float32), np.ones(2, np.int32))

    def test_wrong_shape_names_the_argument(self):
        for bad in (np.zeros((4, 5), np.float32), np.zeros(6, np.float32), np.zeros((2, 3, 7), np.float32),
                    np.float32(1.0)):
            self.assert_raises_naming(ValueError, "rays", self.scene.cast_rays, bad)
        self.assert_raises_naming(ValueError, "query_points", self.scene.compute_distance, np.zeros((4, 2), np.float32))
        self.assert_raises_naming(ValueError, "vertex_positions", self.scene.add_triangles,
                                  np.zeros((3, 3, 1), np.float32), np.zeros((1, 3), np.uint32))
        self.assert_raises_naming(ValueError, "triangle_indices", self.scene.add_triangles, np.zeros((3, 3), np.float32),
                                  np.zeros((1, 4), np.uint32))
        self.assert_raises_naming(ValueError, "directions", self.scene.sphere_cast, np.zeros((3, 3), np.float32),
                                  np.zeros((2, 3), np.float32), 0.1)
        self.assert_raises_naming(ValueError, "directions", self.scene.sphere_cast, np.zeros((2, 3, 3), np.float32),
                                  np.zeros((3, 2, 3), np.float32), 0.1)
        self.assert_raises_naming(ValueError, "radius", self.scene.sphere_cast, np.zeros((3, 3), np.float32),
                                  np.ones((3, 3), np.float32), np.ones(2, np.float32))
        self.assert_raises_naming(ValueError, "radius", self.scene.sphere_cast, np.zeros((2, 3, 3), np.float32),
                                  np.ones((2, 3, 3), np.float32), np.ones(6, np.float32))
        self.assert_raises_naming(ValueError, "center", self.scene.overlap_sphere, (1, 2), 1.0)

    def test_indices_out_of_range(self):
        v = np.zeros((3, 3), np.float32)
        for bad in (np.array([[0, 1, 3]], np.uint32), np.array([[0, -1, 2]], np.int64),
                    np.array([[0, 1, 2**63 + 5]], np.uint64), np.array([[0, 1, 2**40]], np.int64)):
            self.assert_raises_naming(ValueError, "triangle_indices", self.scene.add_triangles, v, bad)
        self.assertEqual(self.scene.geometry_count, 2)  # nothing was added

    def test_non_finite_vertices(self):
        v = np.array([[0, 0, 0], [1, 0, 0], [0, NAN, 0], [INF, 0, 0]], np.float32)
        with self.assertRaises(ValueError):
            self.scene.add_triangles(v, np.array([[0, 1, 2]], np.uint32))
        with self.assertRaises(ValueError):
            self.scene.add_triangles(v, np.array([[0, 1, 3]], np.uint32))
        # A NaN vertex that no triangle uses is allowed.
        self.assertEqual(self.scene.add_triangles(v, np.zeros((0, 3), np.uint32)), 2)

    def test_coordinates_beyond_the_working_range(self):
        # Vertices beyond ±1e15 are refused by name, rays from beyond it miss, points beyond it are NaN.
        far = np.array([[0, 0, 0], [1, 0, 0], [0, 1e16, 0], [-3e38, 0, 0], [0, 0, 1e15]], np.float32)
        self.assert_raises_naming(ValueError, "working range", self.scene.add_triangles, far,
                                  np.array([[0, 1, 2]], np.uint32))
        self.assert_raises_naming(ValueError, "working range", self.scene.add_triangles, far,
                                  np.array([[0, 1, 3]], np.uint32))
        self.assertEqual(self.scene.geometry_count, 2)  # nothing was added
        self.assertEqual(self.scene.add_triangles(far, np.array([[0, 1, 4]], np.uint32)), 2)  # at the edge: fine
        aimed = self.scene.cast_rays(np.array([[0, 0, 5, 0, 0, -1]], np.float32))
        self.assertEqual(aimed["geometry_ids"][0], 0)  # the same ray from within the range hits
        rays = np.array([[0, 0, 1e16, 0, 0, -1], [2e15, 0, 5, -1, 0, -1]], np.float32)
        got = self.scene.cast_rays(rays)
        np.testing.assert_array_equal(got["t_hit"], INF)
        np.testing.assert_array_equal(got["geometry_ids"], INVALID)
        self.assertFalse(self.scene.test_occlusions(rays).any())
        points = np.array([[0, 0, 1e16], [-3e38, 0, 0], [0, 0, 5]], np.float32)
        closest = self.scene.compute_closest_points(points)
        np.testing.assert_array_equal(closest["geometry_ids"][:2], INVALID)
        self.assertTrue(np.isnan(closest["points"][:2]).all())
        distance = self.scene.compute_distance(points)
        self.assertTrue(np.isnan(distance[:2]).all())
        self.assertFalse(np.isnan(distance[2]))

    def test_empty_inputs(self):
        empty = np.zeros((0, 6), np.float32)
        got = self.scene.cast_rays(empty)
        self.assertEqual(got["t_hit"].shape, (0,))
        self.assertEqual(got["primitive_uvs"].shape, (0, 2))
        self.assertEqual(self.scene.test_occlusions(empty).shape, (0,))
        self.assertEqual(self.scene.compute_closest_points(np.zeros((0, 3), np.float32))["points"].shape, (0, 3))
        self.assertEqual(self.scene.compute_occupancy(np.zeros((0, 3), np.float32)).shape, (0,))
        self.assertEqual(self.scene.sphere_cast(np.zeros((0, 3), np.float32), np.zeros((0, 3), np.float32),
                                                0.1)["distance"].shape, (0,))
        self.assertEqual(self.scene.cast_rays(np.zeros((5, 0, 6), np.float32))["t_hit"].shape, (5, 0))
        gid = self.scene.add_triangles(np.zeros((0, 3), np.float32), np.zeros((0, 3), np.uint32))
        self.assertEqual(gid, 2)
        self.assertEqual(self.scene.add_triangles(np.zeros((0, 3), np.float32), []), 3)  # [] is no triangles
        self.assert_raises_naming(ValueError, "vertex_positions", self.scene.add_triangles, [], [])  # but not (N, 3)
        empty_scene = hitscan.Scene()
        rays = np.array([[0, 0, 0, 1, 0, 0]], np.float32)
        self.assertEqual(empty_scene.cast_rays(rays)["geometry_ids"][0], INVALID)
        self.assertEqual(empty_scene.compute_distance(np.zeros((1, 3), np.float32))[0], INF)
        self.assertTrue(np.isnan(empty_scene.compute_closest_points(np.zeros((1, 3), np.float32))["points"]).all())
        self.assertEqual(empty_scene.compute_occupancy(np.zeros((1, 3), np.float32))[0], 0.0)

    def test_non_finite_and_degenerate_rays_miss(self):
        rays = np.array([[NAN, 0, 5, 0, 0, -1], [0, 0, 5, 0, 0, NAN], [0, 0, INF, 0, 0, -1], [0, 0, 5, 0, 0, -INF],
                         [0, 0, 5, 0, 0, 0], [0, 0, 5, 0, 0, -1e-30], [0, 0, 5, 1e30, 1e30, 1e30]], np.float32)
        got = self.scene.cast_rays(rays)
        np.testing.assert_array_equal(got["t_hit"][:5], INF)
        np.testing.assert_array_equal(got["geometry_ids"][:5], INVALID)
        self.assertFalse(np.isnan(got["t_hit"]).any())
        self.assertFalse(self.scene.test_occlusions(rays)[:5].any())
        np.testing.assert_array_equal(self.scene.count_intersections(rays)[:5], 0)
        self.assertEqual(self.scene.list_intersections(rays)["ray_splits"][5], 0)

    def test_non_finite_query_points(self):
        points = np.array([[NAN, 0, 0], [INF, 0, 0], [0, 0, 0]], np.float32)
        got = self.scene.compute_closest_points(points)
        np.testing.assert_array_equal(got["geometry_ids"][:2], INVALID)
        self.assertTrue(np.isnan(got["points"][:2]).all())
        for query in (self.scene.compute_distance, self.scene.compute_signed_distance, self.scene.compute_occupancy):
            out = query(points)
            self.assertTrue(np.isnan(out[:2]).all())
            self.assertFalse(np.isnan(out[2]))

    def test_bad_scalars(self):
        rays = np.array([[0, 0, 5, 0, 0, -1]], np.float32)
        with self.assertRaises(ValueError):
            self.scene.test_occlusions(rays, tnear=NAN)
        np.testing.assert_array_equal(self.scene.test_occlusions(rays, tnear=3.0, tfar=1.0), False)
        with self.assertRaises(ValueError):
            self.scene.cast_rays(rays, nthreads=-1)
        with self.assertRaises(ValueError):
            self.scene.add_sphere((0, 0, 0), -1.0)
        with self.assertRaises(ValueError):
            self.scene.add_sphere((NAN, 0, 0), 1.0)
        with self.assertRaises(ValueError):
            self.scene.add_sphere((0, 0, 0), INF)
        with self.assertRaises(ValueError):
            self.scene.add_capsule((0, 0, 0), (0, 0, 1), NAN)
        with self.assertRaises(ValueError):
            self.scene.add_box((0, 0, 0), (INF, 1, 1))
        with self.assertRaises(ValueError):
            self.scene.cast_rays(rays, nthreads=100000)
        with self.assertRaises(ValueError):
            self.scene.add_plane((0, 0, 0), (0, 0, 0))
        with self.assertRaises(ValueError):
            self.scene.add_box((0, 0, 0), (1, 1, 1), rotation=np.diag([1, 1, -1]).astype(np.float32))
        with self.assertRaises(ValueError):
            self.scene.add_box((0, 0, 0), (1, 1, 1), rotation=np.ones((3, 3), np.float32))
        self.assertEqual(self.scene.geometry_count, 2)
        origin = np.array([[0, 0, 5]], np.float32)
        down = np.array([[0, 0, -1]], np.float32)
        self.assertEqual(self.scene.sphere_cast(origin, down, NAN)["distance"][0], INF)
        self.assertEqual(self.scene.sphere_cast(origin, down, -1.0)["distance"][0], INF)
        self.assertEqual(self.scene.sphere_cast(origin, np.zeros((1, 3), np.float32), 0.1)["distance"][0], INF)
        self.assertEqual(len(self.scene.overlap_sphere((NAN, 0, 0), 1.0)), 0)
        self.assertEqual(len(self.scene.overlap_sphere((0, 0, 0), NAN)), 0)

    def test_drape_rejects_bad_routes(self):
        route = np.array([[0, 0, 2], [1, 0, 2]], np.float32)
        for kwargs in ({"route": route[:1]}, {"route": np.array([[0, 0, NAN], [1, 0, 0]], np.float32)},
                       {"route": route, "gravity": (0, 0, 0)}, {"route": route, "gravity": (NAN, 0, -1)},
                       {"route": route, "near_spacing": -1.0}, {"route": route, "gap_mode": "fly"},
                       {"route": route, "max_points": 0}):
            with self.assertRaises(ValueError, msg=str(kwargs)):
                self.scene.drape(**kwargs)
        with self.assertRaises(TypeError):
            self.scene.drape(route, no_such_setting=1.0)
        with self.assertRaises(TypeError):
            self.scene.drape(route.astype(np.int32))

    def test_layouts_and_conversions(self):
        rng = np.random.default_rng(4)
        rays = ref.random_rays(rng, 300)
        want = self.scene.cast_rays(rays)["t_hit"]
        wide = np.zeros((300, 12), np.float32)
        wide[:, ::2] = rays  # a strided, non-contiguous view
        np.testing.assert_array_equal(self.scene.cast_rays(wide[:, ::2])["t_hit"], want)
        np.testing.assert_array_equal(self.scene.cast_rays(np.asfortranarray(rays))["t_hit"], want)
        np.testing.assert_array_equal(self.scene.cast_rays(rays.tolist())["t_hit"], want)  # lists convert
        self.assertEqual(len(self.scene.compute_distance([[0.0, 0.0, 0.0]])), 1)


if __name__ == "__main__":
    unittest.main()
