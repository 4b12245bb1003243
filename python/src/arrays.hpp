#pragma once
// Turning Python arguments into C++ values and C++ results into numpy arrays. Every check names
// the argument it rejects: wrong dtypes raise TypeError, wrong shapes and values ValueError.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hitscan/executor.hpp"
#include "hitscan/math/vec3.hpp"
#include "hitscan/mesh/triangle_mesh.hpp"
#include "hitscan/status.hpp"

namespace hitscan::python {

namespace py = pybind11;

/// Open3D's RaycastingScene.INVALID_ID: the geometry and primitive id of a miss.
inline constexpr std::uint32_t kInvalidId = 0xFFFFFFFFu;

/// Rows of `width` floats: an array of shape (..., width), C-contiguous float32. `shape` is the
/// leading shape (the outputs keep it, as Open3D's do) and `rows` its product.
struct FloatRows {
  py::array_t<float, py::array::c_style> array;
  std::vector<py::ssize_t> shape;
  std::size_t rows = 0;
  py::ssize_t width = 0;

  const float* row(std::size_t i) const { return array.data() + i * static_cast<std::size_t>(width); }
  Vec3f vec3(std::size_t i, int first = 0) const {
    const float* r = row(i) + first;
    return {r[0], r[1], r[2]};
  }
};

/// Reads `object` as rows of `width` float32 values. numpy arrays of another floating dtype
/// (float64, float16) are converted to float32, as Open3D converts them; arrays of any other dtype
/// raise TypeError. Other sequences are converted with numpy.asarray(object, dtype=float32). The
/// array needs between min_ndim and max_ndim dimensions and a last dimension of `width`
/// (ValueError otherwise). A non-contiguous array is copied.
FloatRows float_rows(py::handle object, const char* name, py::ssize_t width, int min_ndim, int max_ndim);

/// Triangle indices: an integer array of shape (F, 3) (any integer dtype), every index in
/// [0, vertex_count) (ValueError naming the first offender otherwise).
std::vector<TriangleMesh::Indices> triangle_indices(py::handle object, const char* name, std::size_t vertex_count);

/// Three finite floats from any sequence of three numbers.
Vec3f vec3_argument(py::handle object, const char* name);

/// Per-row values: a number broadcast to every row, or a floating array of the rows' leading
/// shape `lead` (converted to float32 like float_rows).
std::vector<float> float_per_row(py::handle object, const char* name, const std::vector<py::ssize_t>& lead);

/// Raises the Python exception that matches a failed Status (ValueError, MemoryError).
[[noreturn]] void raise_status(const Status& status, const char* what);

/// The executor of Open3D's `nthreads` argument: 0 the default pool (all cores), 1 the calling
/// thread, n a pool of n threads (made once per n and kept). ValueError for a negative n.
Executor& executor_for(int nthreads);

/// Writes v as the three floats of row i of an (..., 3) array.
inline void write3(float* out, std::size_t i, Vec3f v) {
  out[3 * i] = v.x;
  out[3 * i + 1] = v.y;
  out[3 * i + 2] = v.z;
}

/// An uninitialised numpy array of the leading shape `lead` followed by `extra` dimensions.
template <class T>
py::array_t<T> make_array(const std::vector<py::ssize_t>& lead, std::initializer_list<py::ssize_t> extra = {}) {
  std::vector<py::ssize_t> shape = lead;
  shape.insert(shape.end(), extra.begin(), extra.end());
  return py::array_t<T>(shape);
}

}  // namespace hitscan::python
