"""Ray queries against brute force over every triangle, in Open3D's conventions."""

import unittest

import numpy as np

import hitscan
import reference as ref

INVALID = 4294967295


def two_mesh_scene():
    """A closed icosphere (geometry 0) and a random triangle soup beside it (geometry 1)."""
    rng = np.random.default_rng(7)
    sphere_v, sphere_f = ref.icosphere(3)
    soup_v = (rng.uniform(-0.4, 0.4, size=(90, 3)) + [1.3, 0.0, 0.0]).astype(np.float32)
    soup_f = np.arange(90, dtype=np.uint32).reshape(30, 3)
    scene = hitscan.Scene()
    ids = scene.add_triangles(sphere_v, sphere_f), scene.add_triangles(soup_v, soup_f)
    return scene, ids, [(sphere_v, sphere_f), (soup_v, soup_f)]


def brute_first(rays, meshes):
    """Nearest hit over several meshes: t, geometry, triangle, u, v, margin, gap to the next t."""
    best = None
    for g, (v, f) in enumerate(meshes):
        t, tri, u, w, margin, t2 = ref.first_hits(rays, v, f)
        cur = dict(t=t, g=np.where(tri >= 0, g, -1), f=tri, u=u, v=w, m=margin, t2=t2)
        if best is None:
            best = cur
            continue
        closer = cur["t"] < best["t"]
        second = np.minimum(np.where(closer, best["t"], cur["t"]), np.minimum(best["t2"], cur["t2"]))
        for k in cur:
            best[k] = np.where(closer, cur[k], best[k])
        best["t2"] = second
    return best


class CastRaysTest(unittest.TestCase):
    def setUp(self):
        self.scene, self.ids, self.meshes = two_mesh_scene()
        self.rays = ref.random_rays(np.random.default_rng(1), 3000, target_radius=1.6)

    def test_ids_count_from_zero(self):
        self.assertEqual(self.ids, (0, 1))
        self.assertEqual(hitscan.INVALID_ID, INVALID)
        self.assertEqual(hitscan.Scene.INVALID_ID, INVALID)

    def test_matches_brute_force(self):
        got = self.scene.cast_rays(self.rays)
        want = brute_first(self.rays, self.meshes)
        # Rays within 1e-4 (barycentric) of an edge or with two surfaces at nearly the same t may
        # legitimately pick either side; they are checked for t alone.
        margins = np.concatenate([ref.ray_triangle(self.rays, v, f)[3] for v, f in self.meshes], axis=1)
        near_edge = np.any(np.abs(margins) < 1e-4, axis=1)
        with np.errstate(invalid="ignore"):  # inf - inf on misses
            clear = ~near_edge & ~(want["t2"] - want["t"] <= 1e-4 * (1 + want["t"]))
        hit = np.isfinite(want["t"])
        self.assertGreater(np.count_nonzero(hit & clear), 1000)
        self.assertGreater(np.count_nonzero(~hit), 300)
        np.testing.assert_array_equal(np.isfinite(got["t_hit"])[clear], hit[clear])
        np.testing.assert_allclose(got["t_hit"][hit], want["t"][hit], rtol=1e-4, atol=1e-5)
        sel = hit & clear
        np.testing.assert_array_equal(got["geometry_ids"][sel], want["g"][sel])
        np.testing.assert_array_equal(got["primitive_ids"][sel], want["f"][sel])
        np.testing.assert_allclose(got["primitive_uvs"][sel, 0], want["u"][sel], atol=1e-4)
        np.testing.assert_allclose(got["primitive_uvs"][sel, 1], want["v"][sel], atol=1e-4)
        normals = np.concatenate([ref.triangle_normals(*m) for m in self.meshes])
        offset = np.where(want["g"] == 1, len(self.meshes[0][1]), 0)
        np.testing.assert_allclose(got["primitive_normals"][sel], normals[want["f"][sel] + offset[sel]], atol=1e-5)

    def test_misses_follow_open3d(self):
        got = self.scene.cast_rays(self.rays)
        miss = ~np.isfinite(got["t_hit"])
        self.assertTrue(np.all(got["t_hit"][miss] == np.inf))
        self.assertTrue(np.all(got["geometry_ids"][miss] == INVALID))
        self.assertTrue(np.all(got["primitive_ids"][miss] == INVALID))
        self.assertTrue(np.all(got["primitive_uvs"][miss] == 0))
        self.assertTrue(np.all(got["primitive_normals"][miss] == 0))

    def test_dtypes_shapes_and_leading_dimensions(self):
        image = self.rays[:2400].reshape(40, 60, 6)
        got = self.scene.cast_rays(image)
        self.assertEqual(set(got), {"t_hit", "geometry_ids", "primitive_ids", "primitive_uvs", "primitive_normals"})
        self.assertEqual((got["t_hit"].dtype, got["t_hit"].shape), (np.float32, (40, 60)))
        self.assertEqual((got["geometry_ids"].dtype, got["geometry_ids"].shape), (np.uint32, (40, 60)))
        self.assertEqual((got["primitive_ids"].dtype, got["primitive_ids"].shape), (np.uint32, (40, 60)))
        self.assertEqual((got["primitive_uvs"].dtype, got["primitive_uvs"].shape), (np.float32, (40, 60, 2)))
        self.assertEqual((got["primitive_normals"].dtype, got["primitive_normals"].shape), (np.float32, (40, 60, 3)))
        flat = self.scene.cast_rays(self.rays[:2400])
        np.testing.assert_array_equal(got["t_hit"].ravel(), flat["t_hit"])

    def test_t_is_in_units_of_the_direction_length(self):
        rays = np.array([[0, 0, 5, 0, 0, -1], [0, 0, 5, 0, 0, -4], [0, 0, 5, 0, 0, -0.25]], np.float32)
        got = self.scene.cast_rays(rays)["t_hit"]
        np.testing.assert_allclose(got * 1, [4.0, 1.0, 16.0], rtol=1e-5)

    def test_rays_through_every_vertex_hit_once(self):
        # Watertightness: from the centre through each vertex (shared by 5 or 6 triangles).
        v, f = self.meshes[0]
        rays = np.hstack([np.zeros_like(v), v]).astype(np.float32)
        self.assertTrue(np.all(np.isfinite(self.scene.cast_rays(rays)["t_hit"])))
        scene = hitscan.Scene()
        scene.add_triangles(v, f)
        np.testing.assert_array_equal(scene.count_intersections(rays), 1)


class OcclusionAndCountTest(unittest.TestCase):
    def setUp(self):
        self.scene, _, self.meshes = two_mesh_scene()
        self.rays = ref.random_rays(np.random.default_rng(2), 2000, target_radius=1.6)
        ts = [ref.ray_triangle(self.rays, v, f) for v, f in self.meshes]
        self.all_t = np.concatenate([t for t, _, _, _ in ts], axis=1)
        margins = np.concatenate([m for _, _, _, m in ts], axis=1)
        # Rays passing within 1e-4 of an edge are left out of the exact comparisons.
        near_edge = np.any(np.abs(margins) < 1e-4, axis=1)
        self.clear = ~near_edge

    def test_occlusions_match_brute_force(self):
        for tnear, tfar in [(0.0, np.inf), (0.0, 1.5), (1.0, 2.0), (2.5, 1.0)]:
            got = self.scene.test_occlusions(self.rays, tnear=tnear, tfar=tfar)
            self.assertEqual(got.dtype, np.bool_)
            finite = np.isfinite(self.all_t)
            want = np.any(finite & (self.all_t >= tnear) & (self.all_t <= tfar), axis=1)
            # A hit within 1e-4 of tnear or tfar may round either way.
            with np.errstate(invalid="ignore"):
                close = np.any(np.abs(self.all_t - tnear) < 1e-4 * (1 + tnear), axis=1) | np.any(
                    np.abs(self.all_t - tfar) < 1e-4 * (1 + tfar), axis=1)
            sel = self.clear & ~close
            np.testing.assert_array_equal(got[sel], want[sel], err_msg=f"tnear={tnear} tfar={tfar}")

    def test_counts_match_brute_force(self):
        got = self.scene.count_intersections(self.rays)
        self.assertEqual(got.dtype, np.int32)
        want = np.sum(np.isfinite(self.all_t), axis=1)
        np.testing.assert_array_equal(got[self.clear], want[self.clear])
        self.assertGreater(np.count_nonzero(want >= 4), 20)

    def test_rays_from_inside_count_odd(self):
        rng = np.random.default_rng(3)
        d = rng.normal(size=(5000, 3))
        rays = np.hstack([rng.uniform(-0.3, 0.3, size=(5000, 3)), d]).astype(np.float32)
        scene = hitscan.Scene()
        scene.add_triangles(*self.meshes[0])
        np.testing.assert_array_equal(scene.count_intersections(rays) % 2, 1)

    def test_list_intersections_matches_brute_force(self):
        got = self.scene.list_intersections(self.rays)
        self.assertEqual(set(got), {"ray_splits", "ray_ids", "geometry_ids", "primitive_ids", "primitive_uvs", "t_hit"})
        splits = got["ray_splits"]
        self.assertEqual((splits.dtype, splits.shape), (np.uint32, (len(self.rays) + 1,)))
        for key in ("ray_ids", "geometry_ids", "primitive_ids"):
            self.assertEqual(got[key].dtype, np.uint32)
        self.assertEqual(got["primitive_uvs"].shape, (splits[-1], 2))
        counts = self.scene.count_intersections(self.rays)
        np.testing.assert_array_equal(np.diff(splits.astype(np.int64)), counts)
        np.testing.assert_array_equal(got["ray_ids"], np.repeat(np.arange(len(self.rays)), counts))
        for i in np.flatnonzero(self.clear)[:400]:
            t = got["t_hit"][splits[i]:splits[i + 1]]
            self.assertTrue(np.all(np.diff(t) >= 0))
            want = np.sort(self.all_t[i][np.isfinite(self.all_t[i])])
            np.testing.assert_allclose(t, want, rtol=1e-4, atol=1e-5)
        first = self.scene.cast_rays(self.rays)
        has = counts > 0
        np.testing.assert_array_equal(got["t_hit"][splits[:-1][has]], first["t_hit"][has])

    def test_zero_length_rays_array(self):
        empty = np.zeros((0, 6), np.float32)
        self.assertEqual(self.scene.count_intersections(empty).shape, (0,))
        got = self.scene.list_intersections(empty)
        np.testing.assert_array_equal(got["ray_splits"], [0])
        self.assertEqual(got["t_hit"].shape, (0,))


class Open3DPortTest(unittest.TestCase):
    """What code written for Open3D passes in: its meshes, its tensors, its pinhole rays."""

    def open3d(self):
        try:
            import open3d as o3d
        except ImportError:
            self.skipTest("open3d is not installed")
        return o3d

    def test_open3d_meshes_and_tensors_are_accepted(self):
        o3d = self.open3d()
        legacy = o3d.geometry.TriangleMesh.create_sphere(1.0, 12)
        scene = hitscan.Scene()
        self.assertEqual(scene.add_triangles(legacy), 0)
        self.assertEqual(scene.add_triangles(o3d.t.geometry.TriangleMesh.from_legacy(legacy).translate([3, 0, 0])), 1)
        v, f = np.asarray(legacy.vertices, np.float32), np.asarray(legacy.triangles, np.uint32)
        plain = hitscan.Scene()
        plain.add_triangles(v, f)
        plain.add_triangles(v + np.float32([3, 0, 0]), f)
        rays = ref.random_rays(np.random.default_rng(15), 500, target_radius=2.0)
        ours = scene.cast_rays(o3d.core.Tensor(rays))
        want = plain.cast_rays(rays)
        for key in want:
            np.testing.assert_array_equal(ours[key], want[key], err_msg=key)
        with self.assertRaises(TypeError):
            scene.add_triangles(42)

    def test_pinhole_rays_equal_open3d(self):
        o3d = self.open3d()
        theirs = o3d.t.geometry.RaycastingScene.create_rays_pinhole(
            fov_deg=60, center=[0.5, 0.5, 0.5], eye=[-1, -1, -1], up=[0, 0, 1], width_px=64, height_px=48).numpy()
        ours = hitscan.Scene.create_rays_pinhole(fov_deg=60, center=[0.5, 0.5, 0.5], eye=[-1, -1, -1], up=[0, 0, 1],
                                                 width_px=64, height_px=48)
        self.assertEqual((ours.dtype, ours.shape), (np.float32, (48, 64, 6)))
        np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-6)
        k = np.array([[500.0, 0, 320], [0, 510, 240], [0, 0, 1]])
        extrinsic = np.eye(4)
        extrinsic[:3, :3] = [[0, 1, 0], [-1, 0, 0], [0, 0, 1]]
        extrinsic[:3, 3] = [0.1, 0.2, 3.0]
        theirs = o3d.t.geometry.RaycastingScene.create_rays_pinhole(
            o3d.core.Tensor(k), o3d.core.Tensor(extrinsic), 64, 48).numpy()
        np.testing.assert_allclose(hitscan.Scene.create_rays_pinhole(k, extrinsic, 64, 48), theirs, rtol=1e-6, atol=1e-6)

    def test_image_of_a_sphere(self):  # needs no Open3D
        v, f = ref.icosphere(3)
        scene = hitscan.Scene()
        scene.add_triangles(v, f)
        rays = scene.create_rays_pinhole(fov_deg=40, center=[0, 0, 0], eye=[0, -4, 0], up=[0, 0, 1],
                                         width_px=40, height_px=30)
        got = scene.cast_rays(rays)["t_hit"]
        want = ref.first_hits(rays.reshape(-1, 6), v, f)[0].reshape(30, 40)
        np.testing.assert_allclose(got[np.isfinite(want)], want[np.isfinite(want)], rtol=1e-4)
        self.assertTrue(np.isfinite(got[15, 20]) and np.isinf(got[0, 0]))
        with self.assertRaises(ValueError):
            scene.create_rays_pinhole(np.eye(3), np.eye(4), 0, 10)
        with self.assertRaises(ValueError):
            scene.create_rays_pinhole(np.zeros((3, 3)), np.eye(4), 4, 4)


if __name__ == "__main__":
    unittest.main()
