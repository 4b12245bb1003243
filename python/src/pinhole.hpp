#pragma once
// Rays of a pinhole camera in Open3D's conventions (RaycastingScene.create_rays_pinhole).

#include "arrays.hpp"

namespace hitscan::python {

/// Rays (height_px, width_px, 6) float32 through the pixel centres, from an intrinsic matrix K
/// (3, 3) and an extrinsic matrix (4, 4) taking world to camera coordinates.
py::array create_rays_pinhole(py::handle intrinsic_matrix, py::handle extrinsic_matrix, int width_px, int height_px);

/// The same for a camera at eye looking at center, with a horizontal field of view in degrees.
py::array create_rays_pinhole(double fov_deg, py::handle center, py::handle eye, py::handle up, int width_px,
                              int height_px);

}  // namespace hitscan::python
