// Scene.create_rays_pinhole: the rays of a pinhole camera, exactly as Open3D's static method of the
// same name makes them (its conventions reproduced here: pixel centres at +0.5, the extrinsic
// matrix world-to-camera, and its look-at frame for the field-of-view form).

#include "pinhole.hpp"

#include <array>
#include <cmath>
#include <numbers>
#include <string>

namespace hitscan::python {
namespace {

using Matrix3 = std::array<std::array<double, 3>, 3>;

// A small matrix argument of any real dtype, as float64 (Open3D converts these to Float64 too).
py::array_t<double, py::array::c_style> matrix_argument(py::handle object, const char* name, py::ssize_t rows,
                                                         py::ssize_t cols) {
  py::array source;
  try {
    source = py::module_::import("numpy").attr("asarray")(object, py::arg("dtype") = "float64");
  } catch (py::error_already_set& error) {
    throw py::type_error(std::string(name) + " must be a numeric array: " + error.what());
  }
  if (source.ndim() != 2 || source.shape(0) != rows || source.shape(1) != cols) {
    throw py::value_error(std::string(name) + " must have shape (" + std::to_string(rows) + ", " +
                          std::to_string(cols) + ")");
  }
  auto values = py::array_t<double, py::array::c_style>::ensure(source);
  for (py::ssize_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values.data()[i])) throw py::value_error(std::string(name) + " must be finite");
  }
  return values;
}

void check_size(int width_px, int height_px) {
  if (width_px < 1 || height_px < 1 || static_cast<long long>(width_px) * height_px > (1LL << 30)) {
    throw py::value_error("width_px and height_px must be positive, with at most 2**30 pixels");
  }
}

py::array rays_from(const Matrix3& k, const Matrix3& r_transposed, const std::array<double, 3>& t, int width_px,
                    int height_px) {
  // K^-1 by cofactors.
  const double det = k[0][0] * (k[1][1] * k[2][2] - k[1][2] * k[2][1]) -
                     k[0][1] * (k[1][0] * k[2][2] - k[1][2] * k[2][0]) +
                     k[0][2] * (k[1][0] * k[2][1] - k[1][1] * k[2][0]);
  if (!(std::fabs(det) > 0.0) || !std::isfinite(det)) throw py::value_error("intrinsic_matrix must be invertible");
  Matrix3 inv{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const int r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3, c1 = (i + 2) % 3;
      inv[i][j] = (k[r0][c0] * k[r1][c1] - k[r0][c1] * k[r1][c0]) / det;
    }
  }
  // Origin C = -R^T t; directions (R^T K^-1) (x + 0.5, y + 0.5, 1), the product rounded to float
  // first as Open3D does.
  std::array<std::array<float, 3>, 3> m{};
  std::array<float, 3> origin{};
  for (int i = 0; i < 3; ++i) {
    double c = 0;
    for (int j = 0; j < 3; ++j) {
      c -= r_transposed[i][j] * t[j];
      double sum = 0;
      for (int l = 0; l < 3; ++l) sum += r_transposed[i][l] * inv[l][j];
      m[i][j] = static_cast<float>(sum);
    }
    origin[i] = static_cast<float>(c);
  }
  py::array_t<float> rays({py::ssize_t{height_px}, py::ssize_t{width_px}, py::ssize_t{6}});
  float* out = rays.mutable_data();
  for (int y = 0; y < height_px; ++y) {
    for (int x = 0; x < width_px; ++x, out += 6) {
      const float px[3] = {static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f, 1.0f};
      for (int i = 0; i < 3; ++i) {
        out[i] = origin[i];
        out[3 + i] = m[i][0] * px[0] + m[i][1] * px[1] + m[i][2] * px[2];
      }
    }
  }
  return rays;
}

}  // namespace

py::array create_rays_pinhole(py::handle intrinsic_matrix, py::handle extrinsic_matrix, int width_px, int height_px) {
  check_size(width_px, height_px);
  const auto k_in = matrix_argument(intrinsic_matrix, "intrinsic_matrix", 3, 3);
  const auto e_in = matrix_argument(extrinsic_matrix, "extrinsic_matrix", 4, 4);
  Matrix3 k{}, r_transposed{};
  std::array<double, 3> t{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      k[i][j] = k_in.at(i, j);
      r_transposed[i][j] = e_in.at(j, i);
    }
    t[i] = e_in.at(i, 3);
  }
  return rays_from(k, r_transposed, t, width_px, height_px);
}

py::array create_rays_pinhole(double fov_deg, py::handle center, py::handle eye, py::handle up, int width_px,
                              int height_px) {
  check_size(width_px, height_px);
  if (!(fov_deg > 0.0 && fov_deg < 180.0)) throw py::value_error("fov_deg must be in (0, 180)");
  auto vec = [](py::handle object, const char* name) {
    const auto v = matrix_argument(py::module_::import("numpy").attr("reshape")(object, py::make_tuple(1, 3)), name, 1, 3);
    return std::array<double, 3>{v.at(0, 0), v.at(0, 1), v.at(0, 2)};
  };
  const std::array<double, 3> c = vec(center, "center"), e = vec(eye, "eye"), u = vec(up, "up");
  auto cross = [](const std::array<double, 3>& a, const std::array<double, 3>& b) {
    return std::array<double, 3>{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  };
  auto normalized = [](std::array<double, 3> a, const char* what) {
    const double n = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    if (!(n > 0.0)) throw py::value_error(std::string(what) + " must not be zero (or parallel to the view)");
    for (double& x : a) x /= n;
    return a;
  };
  // Open3D's look-at frame: rows of the world-to-camera rotation R.
  std::array<std::array<double, 3>, 3> rows{};
  rows[1] = normalized(u, "up");
  rows[2] = normalized({c[0] - e[0], c[1] - e[1], c[2] - e[2]}, "center - eye");
  rows[0] = normalized(cross(rows[1], rows[2]), "up x (center - eye)");
  rows[1] = cross(rows[2], rows[0]);
  const double focal = 0.5 * width_px / std::tan(0.5 * (std::numbers::pi / 180.0) * fov_deg);
  const Matrix3 k{{{focal, 0, 0.5 * width_px}, {0, focal, 0.5 * height_px}, {0, 0, 1}}};
  Matrix3 r_transposed{};
  std::array<double, 3> t{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) r_transposed[i][j] = rows[j][i];
    t[i] = -(rows[i][0] * e[0] + rows[i][1] * e[1] + rows[i][2] * e[2]);
  }
  return rays_from(k, r_transposed, t, width_px, height_px);
}

}  // namespace hitscan::python
