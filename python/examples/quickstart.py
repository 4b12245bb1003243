"""hitscan from Python in a minute: the calls of Open3D's RaycastingScene, on numpy arrays.

Code written for Open3D ports by changing the import and dropping the o3d.core.Tensor wrappers:
    scene = o3d.t.geometry.RaycastingScene()  ->  scene = hitscan.Scene()
Run with Debian's python3 and the module's build directory on PYTHONPATH.
"""

import numpy as np

import hitscan

# A unit cube [0, 1]^3 as 12 triangles, wound counter-clockwise seen from outside.
vertices = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], np.float32)
triangles = np.array([[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
                      [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]], np.uint32)

scene = hitscan.Scene()
cube = scene.add_triangles(vertices, triangles)  # geometry id 0
ball = scene.add_sphere(center=(3, 0.5, 0.5), radius=0.5)  # geometry id 1

# Rays are rows [ox, oy, oz, dx, dy, dz]; t_hit is in units of the direction's length.
rays = np.array([[0.5, 0.5, 10, 0, 0, -1],  # down onto the cube's top
                 [-1, -1, -1, 0, 0, -1],  # away from everything
                 [-1, 0.5, 0.5, 2, 0, 0]],  # through the cube to the ball
                np.float32)
hits = scene.cast_rays(rays)
print("t_hit", hits["t_hit"], "geometry_ids", hits["geometry_ids"], "primitive_ids", hits["primitive_ids"])
assert hits["t_hit"][0] == 9.0 and hits["geometry_ids"][0] == cube
assert hits["geometry_ids"][1] == hitscan.INVALID_ID and np.isinf(hits["t_hit"][1])
assert hits["t_hit"][2] == 0.5  # half of the direction's length
crossings = scene.count_intersections(rays)
print("crossings", crossings)  # in and out of the cube, then of the ball
assert crossings.tolist() == [2, 0, 4]

# Points: closest surface point, distance, and a sign that comes from winding numbers, so it stays
# right on meshes with holes.
points = np.array([[0.5, 0.5, 0.5], [0.5, 0.5, 2.0], [3, 0.5, 0.6]], np.float32)
closest = scene.compute_closest_points(points)
print("closest", closest["points"].tolist())
signed = scene.compute_signed_distance(points)
print("signed distance", signed, "occupancy", scene.compute_occupancy(points))
assert np.allclose(signed, [-0.5, 1.0, -0.4], atol=1e-5)

# Beyond Open3D: sweep spheres, find what a sphere touches, drape a route onto the floor.
cast = scene.sphere_cast(np.float32([[0.5, 0.5, 3]]), np.float32([[0, 0, -1]]), radius=0.25)
print("sphere stops after", cast["distance"], "at", cast["points"])
assert abs(cast["distance"][0] - 1.75) < 1e-4
print("touching a sphere at (2, 0.5, 0.5) of radius 0.6:", scene.overlap_sphere((2, 0.5, 0.5), 0.6))

route = np.float32([[0.1, 0.5, 1.5], [0.9, 0.5, 1.5]])
draped = scene.drape(route, gravity=(0, 0, -1), near_spacing=0.2)
print("draped route:", draped["points"][:, 2], "status", draped["status"])
assert np.allclose(draped["points"][:, 2], 1.0) and np.all(draped["status"] == hitscan.DRAPE_ON_SURFACE)
