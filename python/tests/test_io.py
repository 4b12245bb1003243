"""hitscan.io.load_mesh: the C++ loader from Python, its meshes checked against the arrays the
files were written from, its failures as Python exceptions with the loader's message."""

import os
import pathlib
import tempfile
import unittest

import numpy as np

import hitscan
import reference as ref


def write_off(path, vertices, triangles):
    with open(path, "w") as f:
        f.write(f"OFF\n{len(vertices)} {len(triangles)} 0\n")
        f.writelines(f"{x!r} {y!r} {z!r}\n" for x, y, z in vertices.tolist())
        f.writelines(f"3 {a} {b} {c}\n" for a, b, c in triangles.tolist())


class LoadMeshTest(unittest.TestCase):
    def setUp(self):
        self.temp = tempfile.TemporaryDirectory()
        self.dir = pathlib.Path(self.temp.name)

    def tearDown(self):
        self.temp.cleanup()

    def test_off_loads_the_written_arrays_and_casts_like_brute_force(self):
        v, f = ref.icosphere(2)
        path = self.dir / "sphere.off"
        write_off(path, v, f)
        for isolate in (True, False):
            mesh = hitscan.io.load_mesh(path, isolate_importer=isolate)  # an os.PathLike
            self.assertIsInstance(mesh, hitscan.io.Mesh)
            self.assertEqual(mesh.vertices.dtype, np.float32)
            self.assertEqual(mesh.triangles.dtype, np.uint32)
            np.testing.assert_array_equal(mesh.vertices, v)  # OFF keeps the file's vertices and order
            np.testing.assert_array_equal(mesh.triangles, f)
            self.assertEqual((mesh.polygons, mesh.points, mesh.lines, mesh.parts), (len(f), 0, 0, 1))
            self.assertEqual(mesh.normals.shape, (0, 3))
        scene = hitscan.Scene()
        self.assertEqual(scene.add_triangles(hitscan.io.load_mesh(str(path))), 0)
        rays = ref.random_rays(np.random.default_rng(31), 400)
        ref.assert_first_hits_match(scene, rays, v, f)

    def test_obj_parts_quads_and_normals(self):
        # Two objects: a unit quad (one face of 4 corners) facing +z, and a triangle at z = 1.
        path = self.dir / "parts.obj"
        path.write_text("o quad\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//1 4//1\n"
                        "o tri\nv 0 0 1\nv 2 0 1\nv 0 2 1\nvn 0 0 1\nf 5//2 6//2 7//2\nl 5 6\n")
        mesh = hitscan.io.load_mesh(path)
        self.assertEqual(mesh.parts, 2)
        self.assertEqual(mesh.polygons, 2)
        self.assertEqual(mesh.lines, 1)
        self.assertEqual(len(mesh.triangles), 3)  # the quad's fan, then the triangle
        corners = mesh.vertices[mesh.triangles.astype(np.int64)].astype(np.float64)
        np.testing.assert_array_equal(corners[2], [[0, 0, 1], [2, 0, 1], [0, 2, 1]])
        areas = 0.5 * np.linalg.norm(np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]), axis=1)
        np.testing.assert_allclose(areas, [0.5, 0.5, 2.0])
        self.assertEqual(mesh.normals.shape, mesh.vertices.shape)
        used = np.unique(mesh.triangles)  # the line's corners have no normal in the file: zero
        np.testing.assert_array_equal(mesh.normals[used], np.tile([0, 0, 1], (len(used), 1)))
        self.assertEqual(hitscan.io.load_mesh(path, read_normals=False).normals.shape, (0, 3))
        scene = hitscan.Scene()
        scene.add_triangles(mesh)
        # Down onto the triangle (z = 1), beside both (x + y > 2), and up onto the quad (z = 0).
        got = scene.cast_rays(np.array([[0.5, 0.5, 5, 0, 0, -1], [1.5, 0.6, 5, 0, 0, -1], [0.3, 0.6, -5, 0, 0, 1]]))
        np.testing.assert_array_equal(got["t_hit"], [4, np.inf, 5])
        np.testing.assert_array_equal(got["primitive_ids"], [2, hitscan.INVALID_ID, 1])  # the fan's (c0, c2, c3)
        self.assertIn("2 parts", repr(mesh))

    def test_failures_raise_with_the_loaders_message(self):
        missing = self.dir / "missing.obj"
        with self.assertRaises(OSError) as caught:
            hitscan.io.load_mesh(missing)
        self.assertTrue(str(caught.exception).startswith(str(missing) + ":"), str(caught.exception))
        with self.assertRaises(OSError):
            hitscan.io.load_mesh(self.dir)  # a directory is not a mesh file
        garbage = self.dir / "garbage.ply"
        garbage.write_bytes(b"ply\nformat nonsense\n\x00\x01")
        with self.assertRaises(ValueError) as caught:
            hitscan.io.load_mesh(garbage)
        self.assertIn(str(garbage), str(caught.exception))
        lines = self.dir / "lines.obj"
        lines.write_text("v 0 0 0\nv 1 0 0\nl 1 2\n")
        with self.assertRaisesRegex(ValueError, "no triangles"):
            hitscan.io.load_mesh(lines)
        with self.assertRaises(TypeError):
            hitscan.io.load_mesh(3)
        with self.assertRaises(ValueError):
            hitscan.io.load_mesh(lines, time_limit_seconds=-1)


if __name__ == "__main__":
    unittest.main()
