"""hitscan.io.load_mesh: the C++ loader from Python, its meshes checked against the arrays the
files were written from, its failures as Python exceptions with the loader's message."""

import os
import pathlib
import tempfile
import unittest

import numpy as np

import hitscan
import reference as ref

ASSIMP_MODELS = "/usr/share/assimp/models"  # Debian's assimp-testmodels


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

    def assert_parts_make_the_whole(self, path, **options):
        whole = hitscan.io.load_mesh(path, **options)
        parts = hitscan.io.load_mesh(path, split_parts=True, **options)
        self.assertIsInstance(parts, list)
        self.assertEqual(len(parts), whole.parts)
        ranges = whole.part_ranges
        self.assertEqual([p.name for p in parts], [r.name for r in ranges])
        self.assertEqual([p.node_name for p in parts], [r.node_name for r in ranges])
        self.assertEqual(whole.name, "")
        bases = np.cumsum([0] + [len(p.vertices) for p in parts])
        self.assertEqual([r.first_vertex for r in ranges], bases[:-1].tolist())
        for part, base in zip(parts, bases):
            self.assertIsInstance(part, hitscan.io.Mesh)
            self.assertEqual(part.parts, 1)
            if len(part.triangles):
                self.assertLess(int(part.triangles.max()), len(part.vertices))
        # Concatenated, the parts are the unsplit mesh, bit for bit.
        np.testing.assert_array_equal(np.concatenate([p.vertices for p in parts]), whole.vertices)
        np.testing.assert_array_equal(np.concatenate([p.normals for p in parts]), whole.normals)
        np.testing.assert_array_equal(
            np.concatenate([p.triangles.astype(np.int64) + base for p, base in zip(parts, bases)]), whole.triangles)
        self.assertEqual(sum(p.polygons for p in parts), whole.polygons)
        self.assertEqual(sum(p.lines for p in parts), whole.lines)
        self.assertEqual(sum(p.points for p in parts), whole.points)
        return parts

    def test_split_parts_of_a_written_obj_are_its_objects(self):
        path = self.dir / "parts.obj"
        path.write_text("o quad\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n"
                        "o tri\nv 0 0 1\nv 2 0 1\nv 0 2 1\nf 5 6 7\nl 5 6\n")
        for isolate in (True, False):
            parts = self.assert_parts_make_the_whole(path, isolate_importer=isolate)
            self.assertEqual([p.name for p in parts], ["quad", "tri"])
            quad, tri = parts
            # The quad's fan over its own 4 corners; the triangle's 3 corners, then the line's 2.
            np.testing.assert_array_equal(quad.triangles, [[0, 1, 2], [0, 2, 3]])
            np.testing.assert_array_equal(quad.vertices, [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]])
            np.testing.assert_array_equal(tri.triangles, [[0, 1, 2]])
            np.testing.assert_array_equal(tri.vertices, [[0, 0, 1], [2, 0, 1], [0, 2, 1], [0, 0, 1], [2, 0, 1]])
            self.assertEqual((tri.polygons, tri.lines), (1, 1))
            self.assertIn("'tri'", repr(tri))
            ranges = hitscan.io.load_mesh(path, isolate_importer=isolate).part_ranges
            self.assertEqual([(r.first_vertex, r.vertex_count, r.first_triangle, r.triangle_count) for r in ranges],
                             [(0, 4, 0, 2), (4, 5, 2, 1)])

    @unittest.skipUnless(os.path.isdir(ASSIMP_MODELS), "assimp's test models are not installed")
    def test_split_parts_of_multi_part_models_make_the_unsplit_mesh(self):
        spider = os.path.join(ASSIMP_MODELS, "OBJ", "spider.obj")
        engine = os.path.join(ASSIMP_MODELS, "glTF2", "2CylinderEngine-glTF-Binary", "2CylinderEngine.glb")
        for transforms in (True, False):
            parts = self.assert_parts_make_the_whole(spider, apply_node_transforms=transforms)
            self.assertEqual(len(parts), 19)
            self.assertEqual(parts[0].name, "HLeib01")
            # The engine places some of its meshes several times: once per placement with transforms.
            parts = self.assert_parts_make_the_whole(engine, apply_node_transforms=transforms)
            names = [p.name for p in parts]
            self.assertEqual(len(names) > len(set(names)), transforms)
            self.assertEqual(all(p.node_name for p in parts), transforms)

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
        with self.assertRaisesRegex(ValueError, "no triangles"):
            hitscan.io.load_mesh(lines, split_parts=True)


if __name__ == "__main__":
    unittest.main()
