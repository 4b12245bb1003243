"""Meshes read from files: assimp's formats through the C++ hitscan::io::load_mesh."""

import os
from typing import Literal, overload

import numpy as np
import numpy.typing as npt

class PartRange:
    """Where one part of a file lies in the Mesh load_mesh() read: its vertices are
    mesh.vertices[first_vertex:first_vertex + vertex_count], its triangles
    mesh.triangles[first_triangle:first_triangle + triangle_count], which use only its vertices."""

    @property
    def name(self) -> str:
        """The part's name in the file (OBJ object, STL solid, glTF mesh); may be empty or repeated."""
    @property
    def node_name(self) -> str:
        """The name of the scene node that placed the part; empty without node transforms."""
    @property
    def first_vertex(self) -> int:
        """Index of the part's first vertex."""
    @property
    def vertex_count(self) -> int:
        """Number of the part's vertices."""
    @property
    def first_triangle(self) -> int:
        """Index of the part's first triangle."""
    @property
    def triangle_count(self) -> int:
        """Number of the part's triangles."""
    @property
    def polygons(self) -> int:
        """The part's faces of 3 or more corners."""
    @property
    def points(self) -> int:
        """The part's faces of one corner, skipped."""
    @property
    def lines(self) -> int:
        """The part's faces of two corners, skipped."""

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
    @property
    def part_ranges(self) -> list[PartRange]:
        """A PartRange per part, in the order the parts are concatenated: where each lies in the arrays."""
    @property
    def name(self) -> str:
        """The part's name in the file (split_parts=True); empty for a whole file."""
    @property
    def node_name(self) -> str:
        """The name of the scene node that placed the part (split_parts=True with node transforms); else empty."""

@overload
def load_mesh(
    path: str | os.PathLike[str],
    *,
    read_normals: bool = True,
    apply_node_transforms: bool = True,
    isolate_importer: bool = True,
    time_limit_seconds: float = 0.0,
    split_parts: Literal[False] = False,
) -> Mesh:
    """Reads the triangle mesh in the file at path with assimp, as the C++ hitscan::io::load_mesh.

    Raises OSError when the file cannot be opened, ValueError when it cannot be read as a mesh or
    holds no triangle, MemoryError when memory runs out; the message is the C++ loader's.
    """
@overload
def load_mesh(
    path: str | os.PathLike[str],
    *,
    read_normals: bool = True,
    apply_node_transforms: bool = True,
    isolate_importer: bool = True,
    time_limit_seconds: float = 0.0,
    split_parts: Literal[True],
) -> list[Mesh]:
    """Reads the file at path as load_mesh() does and returns its parts, in order, as separate
    meshes: each its own vertices (its triangles indexing them from 0), normals, counts and name.
    Concatenated, they are the mesh split_parts=False gives.
    """
