"""hitscan: exact, watertight ray and point queries on triangle meshes and shapes, in the
conventions of Open3D's open3d.t.geometry.RaycastingScene, on numpy arrays."""

from typing import Any, ClassVar, overload

import numpy as np
import numpy.typing as npt

from . import io as io

__version__: str
INVALID_ID: int
DRAPE_ON_SURFACE: int
DRAPE_GAP_BRIDGED: int
DRAPE_NO_SURFACE: int

# Float arrays are float32 or are converted to it (float64, float16, sequences of numbers).
_Floats = npt.ArrayLike
# Triangle indices: any integer dtype (uint32 as in Open3D).
_Indices = npt.ArrayLike
_Vec3 = npt.ArrayLike
_F32 = npt.NDArray[np.float32]
_U32 = npt.NDArray[np.uint32]

class Scene:
    """A scene of triangle meshes and analytic shapes; geometry ids 0, 1, 2, ... in the order added."""

    INVALID_ID: ClassVar[int]
    def __init__(self, nthreads: int = 0) -> None:
        """An empty scene. nthreads: threads for building mesh trees (0: all cores)."""
    @property
    def geometry_count(self) -> int:
        """Geometries added so far."""
    @overload
    def add_triangles(self, vertex_positions: _Floats, triangle_indices: _Indices) -> int:
        """Adds a triangle mesh, float (V, 3) positions and integer (F, 3) indices; returns its geometry id."""
    @overload
    def add_triangles(self, vertex_positions: Any = None, triangle_indices: None = None, mesh: Any = None) -> int:
        """Adds a mesh object (hitscan.io.Mesh, Open3D TriangleMesh), by position or as mesh=; returns
        its geometry id."""
    def add_sphere(self, center: _Vec3, radius: float) -> int:
        """Adds a solid sphere; returns its geometry id."""
    def add_box(self, center: _Vec3, half_extents: _Vec3, rotation: _Floats | None = None) -> int:
        """Adds a solid box; rotation (3, 3) maps box axes to the world. Returns its geometry id."""
    def add_capsule(self, a: _Vec3, b: _Vec3, radius: float) -> int:
        """Adds a solid capsule (points within radius of segment a-b); returns its geometry id."""
    def add_cylinder(self, a: _Vec3, b: _Vec3, radius: float) -> int:
        """Adds a solid capped cylinder with axis a-b; returns its geometry id."""
    def add_plane(self, point: _Vec3, normal: _Vec3) -> int:
        """Adds an infinite two-sided plane through point; returns its geometry id."""
    @overload
    @staticmethod
    def create_rays_pinhole(intrinsic_matrix: _Floats, extrinsic_matrix: _Floats, width_px: int, height_px: int) -> _F32:
        """Rays (height_px, width_px, 6) of a camera with intrinsic (3, 3) and extrinsic (4, 4) matrices."""
    @overload
    @staticmethod
    def create_rays_pinhole(fov_deg: float, center: _Vec3, eye: _Vec3, up: _Vec3, width_px: int, height_px: int) -> _F32:
        """Rays (height_px, width_px, 6) of a camera at eye looking at center."""
    def commit(self) -> None:
        """Makes the geometry added so far visible to queries (queries do it when due)."""
    def cast_rays(self, rays: _Floats, nthreads: int = 0) -> dict[str, npt.NDArray[Any]]:
        """The first hit of each ray (..., 6): t_hit, geometry_ids, primitive_ids, primitive_uvs,
        primitive_normals."""
    def test_occlusions(self, rays: _Floats, tnear: float = 0.0, tfar: float = ..., nthreads: int = 0) -> npt.NDArray[np.bool_]:
        """Whether anything is hit with t in [tnear, tfar] (tfar defaults to inf)."""
    def count_intersections(self, rays: _Floats, nthreads: int = 0) -> npt.NDArray[np.int32]:
        """How many surfaces each ray crosses."""
    def list_intersections(self, rays: _Floats, nthreads: int = 0) -> dict[str, npt.NDArray[Any]]:
        """Every crossing of every ray: ray_splits, ray_ids, geometry_ids, primitive_ids, primitive_uvs,
        t_hit."""
    def compute_closest_points(self, query_points: _Floats, nthreads: int = 0) -> dict[str, npt.NDArray[Any]]:
        """The nearest surface point to each query point (..., 3): points, geometry_ids, primitive_ids,
        primitive_uvs, primitive_normals."""
    def compute_distance(self, query_points: _Floats, nthreads: int = 0) -> _F32:
        """Distance from each query point to the nearest surface."""
    def compute_signed_distance(self, query_points: _Floats, nthreads: int = 0, nsamples: int = 1) -> _F32:
        """Distance to the nearest surface, negative inside (by generalised winding numbers)."""
    def compute_occupancy(self, query_points: _Floats, nthreads: int = 0, nsamples: int = 1) -> _F32:
        """1.0 inside, 0.0 outside (by generalised winding numbers)."""
    def compute_winding_number(self, query_points: _Floats, nthreads: int = 0) -> _F32:
        """The generalised winding number at each query point."""
    def sphere_cast(
        self, origins: _Floats, directions: _Floats, radius: float | _Floats, max_distance: float = ..., nthreads: int = 0
    ) -> dict[str, npt.NDArray[Any]]:
        """Moves spheres along directions (..., 3): distance, points, normals, geometry_ids,
        primitive_ids, started_inside, depth."""
    def overlap_sphere(self, center: _Vec3, radius: float) -> _U32:
        """Geometry ids (ascending) of everything the sphere touches."""
    def drape(
        self, route: _Floats, gravity: _Vec3 = (0.0, 0.0, -1.0), camera: _Vec3 | None = None, nthreads: int = 0,
        **settings: float | int | str,
    ) -> dict[str, Any]:
        """Lays a route (N, 3) onto the surfaces below it: points, normals, route_points, distance,
        status, geometry_ids, gaps, gaps_bridged, route_length."""
