"""Open3D's argument names, float64 input converted as Open3D converts it, and the same array
shapes accepted by every batch query, checked against float64 brute force."""

import inspect
import unittest
import warnings

import numpy as np

import hitscan
import reference as ref

# Open3D 0.16's RaycastingScene signatures (without self), as its documentation gives them.
OPEN3D_SIGNATURES = {
    "cast_rays": ["rays", "nthreads"],
    "test_occlusions": ["rays", "tnear", "tfar", "nthreads"],
    "count_intersections": ["rays", "nthreads"],
    "list_intersections": ["rays", "nthreads"],
    "compute_closest_points": ["query_points", "nthreads"],
    "compute_distance": ["query_points", "nthreads"],
    "compute_signed_distance": ["query_points", "nthreads", "nsamples"],
    "compute_occupancy": ["query_points", "nthreads", "nsamples"],
}


def sphere_scene():
    v, f = ref.icosphere(2)
    scene = hitscan.Scene()
    scene.add_triangles(vertex_positions=v, triangle_indices=f)
    return scene, v, f


class Open3DNamesTest(unittest.TestCase):
    def test_query_signatures_are_open3ds(self):
        for name, parameters in OPEN3D_SIGNATURES.items():
            got = list(inspect.signature(getattr(hitscan.Scene(), name)).parameters)
            self.assertEqual(got, parameters, name)
        got = list(inspect.signature(hitscan.Scene.add_triangles).parameters)
        self.assertEqual(got[:3], ["self", "vertex_positions", "triangle_indices"])
        self.assertEqual(list(inspect.signature(hitscan.Scene.create_rays_pinhole).parameters),
                         ["intrinsic_matrix", "extrinsic_matrix", "width_px", "height_px"])

    def test_add_triangles_by_open3d_keywords_hits_what_brute_force_hits(self):
        scene, v, f = sphere_scene()
        rays = ref.random_rays(np.random.default_rng(21), 500)
        ref.assert_first_hits_match(scene, rays, v, f)

    def test_add_triangles_takes_a_mesh_by_position_or_keyword(self):
        v, f = ref.icosphere(1)

        class Mesh:  # what hitscan.io.Mesh and Open3D's legacy TriangleMesh have in common
            vertices, triangles = v.astype(np.float64), f

        scene = hitscan.Scene()
        self.assertEqual(scene.add_triangles(Mesh()), 0)
        self.assertEqual(scene.add_triangles(mesh=Mesh()), 1)
        with self.assertRaises(TypeError):
            scene.add_triangles(v)  # positions without indices are not a mesh
        with self.assertRaises(TypeError):
            scene.add_triangles(v, f, mesh=Mesh())
        self.assertEqual(scene.geometry_count, 2)


class Float64Test(unittest.TestCase):
    """A float64 array gives exactly what the same values rounded to float32 give."""

    def setUp(self):
        self.scene, self.v, self.f = sphere_scene()
        self.scene.add_sphere((2.5, 0, 0), 0.5)
        rng = np.random.default_rng(22)
        self.rays64 = ref.random_rays(rng, 400, target_radius=2.0).astype(np.float64) * (1 + 1e-9)
        self.points64 = rng.uniform(-2, 2, size=(400, 3))

    def assert_same(self, a, b, what):
        if isinstance(a, dict):
            for key in a:
                np.testing.assert_array_equal(a[key], b[key], err_msg=f"{what}: {key}")
        else:
            np.testing.assert_array_equal(a, b, err_msg=what)

    def test_every_query_converts_float64(self):
        rays32, points32 = self.rays64.astype(np.float32), self.points64.astype(np.float32)
        s = self.scene
        for name in ("cast_rays", "test_occlusions", "count_intersections", "list_intersections"):
            self.assert_same(getattr(s, name)(self.rays64), getattr(s, name)(rays32), name)
        for name in ("compute_closest_points", "compute_distance", "compute_signed_distance", "compute_occupancy",
                     "compute_winding_number"):
            self.assert_same(getattr(s, name)(self.points64), getattr(s, name)(points32), name)
        origins64, directions64 = self.points64 * 3, -self.points64
        self.assert_same(s.sphere_cast(origins64, directions64, np.full(400, 0.1)),
                         s.sphere_cast(origins64.astype(np.float32), directions64.astype(np.float32),
                                       np.full(400, 0.1, np.float32)), "sphere_cast")
        self.assert_same(s.cast_rays(self.rays64.astype(np.float16)), s.cast_rays(self.rays64.astype(np.float16)
                                                                                   .astype(np.float32)), "float16")

    def test_float64_geometry_is_rounded_to_float32(self):
        rays = self.rays64.astype(np.float32)
        wide, narrow = hitscan.Scene(), hitscan.Scene()
        wide.add_triangles(self.v.astype(np.float64), self.f.astype(np.int64))
        narrow.add_triangles(self.v, self.f)
        self.assert_same(wide.cast_rays(rays), narrow.cast_rays(rays), "float64 vertices")

    def test_float64_beyond_float32s_range_is_out_of_range_without_warnings(self):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = self.scene.cast_rays(np.array([[1e300, 0, 0, -1, 0, 0], [0, 0, 5, 0, 0, -1]]))
            self.assertEqual(got["geometry_ids"][0], hitscan.INVALID_ID)
            self.assertEqual(got["geometry_ids"][1], 0)
            self.assertTrue(np.isnan(self.scene.compute_distance(np.array([[1e300, 0, 0]]))[0]))


class ShapesTest(unittest.TestCase):
    """Every batch query takes (N, k) and (A, B, ..., k) alike; results keep the leading shape."""

    def setUp(self):
        self.scene, self.v, self.f = sphere_scene()
        rng = np.random.default_rng(23)
        self.rays = ref.random_rays(rng, 24)
        self.points = rng.uniform(-1.5, 1.5, size=(24, 3)).astype(np.float32)

    def test_ray_queries_keep_the_leading_shape(self):
        for name in ("cast_rays", "test_occlusions", "count_intersections"):
            flat = getattr(self.scene, name)(self.rays)
            shaped = getattr(self.scene, name)(self.rays.reshape(2, 3, 4, 6))
            for key, value in (flat.items() if isinstance(flat, dict) else [("", flat)]):
                got = shaped[key] if key else shaped
                self.assertEqual(got.shape[:3], (2, 3, 4), name)
                np.testing.assert_array_equal(got.reshape(value.shape), value, err_msg=f"{name} {key}")
        flat = self.scene.list_intersections(self.rays)
        shaped = self.scene.list_intersections(self.rays.reshape(4, 6, 6))  # rays flattened, as Open3D's
        for key in flat:
            np.testing.assert_array_equal(shaped[key], flat[key], err_msg=key)

    def test_point_queries_keep_the_leading_shape(self):
        for name in ("compute_closest_points", "compute_distance", "compute_signed_distance", "compute_occupancy",
                     "compute_winding_number"):
            flat = getattr(self.scene, name)(self.points)
            shaped = getattr(self.scene, name)(self.points.reshape(6, 4, 3))
            for key, value in (flat.items() if isinstance(flat, dict) else [("", flat)]):
                got = shaped[key] if key else shaped
                self.assertEqual(got.shape[:2], (6, 4), name)
                np.testing.assert_array_equal(got.reshape(value.shape), value, err_msg=f"{name} {key}")

    def test_sphere_cast_keeps_the_leading_shape(self):
        unit = self.points / np.linalg.norm(self.points, axis=1, keepdims=True)
        origins = (unit * np.linspace(2, 4, 24)[:, None]).astype(np.float32)  # all outside the mesh
        directions = -origins
        radius = np.linspace(0.01, 0.2, 24, dtype=np.float32)
        flat = self.scene.sphere_cast(origins, directions, radius)
        shaped = self.scene.sphere_cast(origins.reshape(4, 6, 3), directions.reshape(4, 6, 3), radius.reshape(4, 6))
        for key, value in flat.items():
            self.assertEqual(shaped[key].shape[:2], (4, 6), key)
            np.testing.assert_array_equal(shaped[key].reshape(value.shape), value, err_msg=key)
        # A sphere moving straight at the centre of the icosphere (inside the unit ball, around a
        # ball of radius 0.9) travels |origin| - radius - (the mesh's extent along that line).
        moved = flat["distance"][np.isfinite(flat["distance"])]
        self.assertEqual(len(moved), 24)
        travelled = np.linalg.norm(origins.astype(np.float64), axis=1) - radius
        self.assertTrue(np.all(moved >= travelled - 1.0 - 1e-5))
        self.assertTrue(np.all(moved <= travelled - 0.9 + 1e-5))


if __name__ == "__main__":
    unittest.main()
