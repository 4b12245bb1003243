"""Meshes read from files: assimp's formats through the C++ hitscan::io::load_mesh."""

import os

import numpy as np
import numpy.typing as npt

class Mesh:
    """A triangle mesh read by load_mesh(), ready for Scene.add_triangles(mesh)."""

    @property
    def vertices(self) -> npt.NDArray[np.float32]:
        """float32 (V, 3): vertex positions."""
    @property
    def triangles(self) -> npt.NDArray[np.uint32]:
        """uint32 (F, 3): vertex indices of each triangle, in the file's face order."""
    @property
    def normals(self) -> npt.NDArray[np.float32]:
        """float32 (V, 3) unit per-vertex normals, or (0, 3) when the file has none."""
    @property
    def polygons(self) -> int:
        """Faces of 3 or more corners; one of k corners gave k - 2 triangles."""
    @property
    def points(self) -> int:
        """Faces of one corner, skipped."""
    @property
    def lines(self) -> int:
        """Faces of two corners (line segments), skipped."""
    @property
    def parts(self) -> int:
        """Parts of the file concatenated (objects, groups, solids, primitives, placements)."""

def load_mesh(
    path: str | os.PathLike[str],
    *,
    read_normals: bool = True,
    apply_node_transforms: bool = True,
    isolate_importer: bool = True,
    time_limit_seconds: float = 0.0,
) -> Mesh:
    """Reads the triangle mesh in the file at path with assimp, as the C++ hitscan::io::load_mesh.

    Raises OSError when the file cannot be opened, ValueError when it cannot be read as a mesh or
    holds no triangle, MemoryError when memory runs out; the message is the C++ loader's.
    """
