"""Meshes read from files: assimp's formats through the C++ hitscan::io::load_mesh."""

from ._hitscan import io as _io

Mesh = _io.Mesh
PartRange = _io.PartRange
load_mesh = _io.load_mesh

__all__ = ["Mesh", "PartRange", "load_mesh"]
