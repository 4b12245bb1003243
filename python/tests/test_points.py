"""Point queries: closest points and distances against brute force and Open3D's own answers; signs
and occupancy against exact winding numbers, on closed and on open (not watertight) meshes."""

import unittest

import numpy as np

import hitscan
import reference as ref

INVALID = 4294967295

try:
    import open3d as o3d
except ImportError:  # Open3D is only needed for the cross-check
    o3d = None


def bumpy_sphere():
    """An icosphere with displaced vertices: closest points fall on faces, edges and vertices."""
    v, f = ref.icosphere(2)
    rng = np.random.default_rng(11)
    v = (v * rng.uniform(0.85, 1.15, size=(len(v), 1))).astype(np.float32)
    return v, f


class ClosestPointTest(unittest.TestCase):
    def setUp(self):
        self.v, self.f = bumpy_sphere()
        self.scene = hitscan.Scene()
        self.scene.add_triangles(self.v, self.f)
        self.points = np.random.default_rng(5).uniform(-2, 2, size=(2000, 3)).astype(np.float32)

    def test_matches_brute_force(self):
        got = self.scene.compute_closest_points(self.points)
        d, p, tri, u, v = ref.closest_points(self.points, self.v, self.f)
        np.testing.assert_allclose(self.scene.compute_distance(self.points), d, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(got["points"], p, atol=1e-4)
        np.testing.assert_array_equal(got["geometry_ids"], 0)
        # The triangle and barycentrics are unique where the point lies inside one face.
        face = (u > 1e-3) & (v > 1e-3) & (1 - u - v > 1e-3)
        self.assertGreater(np.count_nonzero(face), 200)
        np.testing.assert_array_equal(got["primitive_ids"][face], tri[face])
        np.testing.assert_allclose(got["primitive_uvs"][face], np.stack([u, v], 1)[face], atol=1e-4)
        normals = ref.triangle_normals(self.v, self.f)
        np.testing.assert_allclose(got["primitive_normals"], normals[got["primitive_ids"]], atol=1e-5)
        # Barycentrics reproduce the point on the reported triangle, everywhere.
        a, b, c = ref.corners(self.v, self.f)
        ids, uv = got["primitive_ids"], got["primitive_uvs"].astype(np.float64)
        rebuilt = a[ids] * (1 - uv[:, :1] - uv[:, 1:]) + b[ids] * uv[:, :1] + c[ids] * uv[:, 1:]
        np.testing.assert_allclose(rebuilt, got["points"], atol=1e-4)

    def test_shapes_and_dtypes(self):
        grid = self.points[:1200].reshape(10, 12, 10, 3)
        got = self.scene.compute_closest_points(grid)
        self.assertEqual(set(got), {"points", "geometry_ids", "primitive_ids", "primitive_uvs", "primitive_normals"})
        self.assertEqual((got["points"].dtype, got["points"].shape), (np.float32, (10, 12, 10, 3)))
        self.assertEqual((got["geometry_ids"].dtype, got["geometry_ids"].shape), (np.uint32, (10, 12, 10)))
        self.assertEqual((got["primitive_ids"].dtype, got["primitive_ids"].shape), (np.uint32, (10, 12, 10)))
        self.assertEqual(got["primitive_uvs"].shape, (10, 12, 10, 2))
        self.assertEqual(got["primitive_normals"].shape, (10, 12, 10, 3))
        for name in ("compute_distance", "compute_signed_distance", "compute_occupancy"):
            out = getattr(self.scene, name)(grid)
            self.assertEqual((out.dtype, out.shape), (np.float32, (10, 12, 10)), name)

    @unittest.skipIf(o3d is None, "open3d is not installed")
    def test_equals_open3d(self):
        scene = o3d.t.geometry.RaycastingScene()
        scene.add_triangles(o3d.core.Tensor(self.v), o3d.core.Tensor(self.f))
        query = o3d.core.Tensor(self.points)
        theirs = {k: x.numpy() for k, x in scene.compute_closest_points(query).items()}
        ours = self.scene.compute_closest_points(self.points)
        self.assertEqual(set(ours), set(theirs))
        for key in ours:
            self.assertEqual(ours[key].dtype, theirs[key].dtype, key)
            self.assertEqual(ours[key].shape, theirs[key].shape, key)
        np.testing.assert_allclose(ours["points"], theirs["points"], atol=1e-4)
        np.testing.assert_allclose(self.scene.compute_distance(self.points), scene.compute_distance(query).numpy(),
                                   rtol=1e-5, atol=1e-5)
        # Points nearest an edge or a vertex may name either triangle; inside a face, the same one.
        _, _, _, u, v = ref.closest_points(self.points, self.v, self.f)
        face = (u > 1e-3) & (v > 1e-3) & (1 - u - v > 1e-3)
        np.testing.assert_array_equal(ours["primitive_ids"][face], theirs["primitive_ids"][face])
        np.testing.assert_array_equal(ours["geometry_ids"], theirs["geometry_ids"])
        same = ours["primitive_ids"] == theirs["primitive_ids"]
        np.testing.assert_allclose(ours["primitive_uvs"][same], theirs["primitive_uvs"][same], atol=1e-4)
        np.testing.assert_allclose(ours["primitive_normals"][same], theirs["primitive_normals"][same], atol=1e-5)
        self.assertEqual(scene.INVALID_ID, hitscan.INVALID_ID)


class SignTest(unittest.TestCase):
    def check_against_winding(self, scene, v, f, points, margin=0.02):
        w = ref.winding_numbers(points, v, f)
        # The fast evaluation (Barill et al., beta = 2) is within about 1e-3 of exact away from the
        # surface and a few 1e-3 next to it.
        np.testing.assert_allclose(scene.compute_winding_number(points), w, atol=1e-2)
        decided = np.abs(w - 0.5) > margin
        inside = w >= 0.5
        occupancy = scene.compute_occupancy(points)
        np.testing.assert_array_equal(occupancy[decided], inside[decided].astype(np.float32))
        d = ref.closest_points(points, v, f)[0]
        signed = scene.compute_signed_distance(points)
        np.testing.assert_allclose(signed[decided], np.where(inside, -d, d)[decided], rtol=1e-5, atol=1e-5)
        return inside

    def test_closed_mesh(self):
        v, f = bumpy_sphere()
        scene = hitscan.Scene()
        scene.add_triangles(v, f)
        points = np.random.default_rng(6).uniform(-1.5, 1.5, size=(1500, 3)).astype(np.float32)
        inside = self.check_against_winding(scene, v, f, points)
        self.assertTrue(0.08 < inside.mean() < 0.3)  # the ball is about 16% of the cube
        self.assertEqual(scene.compute_occupancy(np.zeros((1, 3), np.float32))[0], 1.0)

    def test_open_mesh_keeps_the_sign(self):
        # A sphere with 10% of its triangles removed: ray parity flips at every hole, the winding
        # number keeps the centre inside and far points outside.
        v, f = ref.icosphere(3)
        keep = np.random.default_rng(8).uniform(size=len(f)) > 0.1
        f = f[keep]
        scene = hitscan.Scene()
        scene.add_triangles(v, f)
        rng = np.random.default_rng(9)
        deep = rng.uniform(-0.4, 0.4, size=(500, 3)).astype(np.float32)
        far = rng.normal(size=(500, 3))
        far = (far * (3.0 / np.linalg.norm(far, axis=1, keepdims=True))).astype(np.float32)
        np.testing.assert_array_equal(scene.compute_occupancy(deep), 1.0)
        np.testing.assert_array_equal(scene.compute_occupancy(far), 0.0)
        self.assertTrue(np.all(scene.compute_signed_distance(deep) < 0))
        # Parity along +x from the deep points is even for some of them (the ray leaves through a
        # hole): the situation this method is for.
        rays = np.hstack([deep, np.tile([1, 0, 0], (500, 1))]).astype(np.float32)
        self.assertGreater(np.count_nonzero(scene.count_intersections(rays) % 2 == 0), 0)
        points = rng.uniform(-1.5, 1.5, size=(1000, 3)).astype(np.float32)
        self.check_against_winding(scene, v, f, points)

    def test_winding_sums_over_meshes_and_solids(self):
        v, f = ref.icosphere(2)
        scene = hitscan.Scene()
        scene.add_triangles(v, f)
        scene.add_triangles(v + np.float32(3.0), f)
        scene.add_sphere((-3, 0, 0), 0.5)
        scene.add_box((0, -3, 0), (0.5, 0.5, 0.5))
        points = np.array([[0, 0, 0], [3, 3, 3], [-3, 0, 0.2], [0.1, -3, 0.1], [1.5, 1.5, 1.5], [-3, 0, 0.7]],
                          np.float32)
        np.testing.assert_array_equal(scene.compute_occupancy(points), [1, 1, 1, 1, 0, 0])
        np.testing.assert_allclose(scene.compute_winding_number(points)[:4], 1.0, atol=1e-2)
        signed = scene.compute_signed_distance(points)
        np.testing.assert_allclose(signed[2], -0.3, atol=1e-5)  # inside the sphere, 0.3 from its surface
        np.testing.assert_allclose(signed[3], -0.4, atol=1e-5)  # inside the box, 0.4 from its top face
        np.testing.assert_allclose(signed[5], 0.2, atol=1e-5)

    def test_nsamples_is_accepted(self):
        v, f = ref.icosphere(1)
        scene = hitscan.Scene()
        scene.add_triangles(v, f)
        q = np.zeros((1, 3), np.float32)
        self.assertEqual(scene.compute_occupancy(q, nsamples=3)[0], 1.0)
        self.assertLess(scene.compute_signed_distance(q, nthreads=1, nsamples=5)[0], 0)
        with self.assertRaises(ValueError):
            scene.compute_occupancy(q, nsamples=0)


if __name__ == "__main__":
    unittest.main()
