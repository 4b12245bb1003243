#include "arrays.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>

namespace hitscan::python {
namespace {

std::string shape_text(const py::array& a) {
  std::string text = "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i) text += (i ? ", " : "") + std::to_string(a.shape(i));
  return text + (a.ndim() == 1 ? ",)" : ")");
}

std::string dtype_text(const py::array& a) { return py::str(a.dtype()).cast<std::string>(); }

// numpy.asarray(object, **kwargs), with a TypeError naming the argument when numpy cannot. Objects
// with a numpy() method (Open3D's tensors) are converted through it first.
py::array as_array(py::handle object, const char* name, const char* dtype) {
  try {
    py::module_ numpy = py::module_::import("numpy");
    py::object source = py::reinterpret_borrow<py::object>(object);
    if (!py::isinstance<py::array>(source) && py::hasattr(source, "numpy")) source = source.attr("numpy")();
    return dtype ? numpy.attr("asarray")(source, py::arg("dtype") = dtype) : numpy.attr("asarray")(source);
  } catch (py::error_already_set& error) {
    throw py::type_error(std::string(name) + " must be array-like" + (dtype ? std::string(" of ") + dtype : "") +
                         ": " + error.what());
  }
}

}  // namespace

FloatRows float_rows(py::handle object, const char* name, py::ssize_t width, int min_ndim, int max_ndim) {
  py::array source;
  if (py::isinstance<py::array>(object)) {
    source = py::reinterpret_borrow<py::array>(object);
    if (!source.dtype().equal(py::dtype::of<float>())) {
      throw py::type_error(std::string(name) + " must be a float32 array, got dtype " + dtype_text(source) +
                           " (convert it with .astype(numpy.float32))");
    }
  } else {
    source = as_array(object, name, "float32");
  }
  const py::ssize_t ndim = source.ndim();
  if (ndim < min_ndim || ndim > max_ndim || source.shape(ndim - 1) != width) {
    std::string expected = min_ndim == max_ndim && min_ndim == 2 ? "(N, " + std::to_string(width) + ")"
                                                                  : "(..., " + std::to_string(width) + ")";
    if (min_ndim != max_ndim) expected += " with at least " + std::to_string(min_ndim) + " dimensions";
    throw py::value_error(std::string(name) + " must have shape " + expected + ", got " + shape_text(source));
  }
  FloatRows rows;
  rows.array = py::array_t<float, py::array::c_style>::ensure(source);
  if (!rows.array) throw py::error_already_set();
  rows.width = width;
  rows.shape.assign(source.shape(), source.shape() + ndim - 1);
  rows.rows = 1;
  for (py::ssize_t extent : rows.shape) rows.rows *= static_cast<std::size_t>(extent);
  return rows;
}

std::vector<TriangleMesh::Indices> triangle_indices(py::handle object, const char* name, std::size_t vertex_count) {
  py::array source = py::isinstance<py::array>(object) ? py::reinterpret_borrow<py::array>(object)
                                                        : as_array(object, name, nullptr);
  const char kind = source.dtype().kind();
  // An empty list converts to float64; it is still an empty set of triangles.
  const bool empty_list = !py::isinstance<py::array>(object) && source.size() == 0;
  if (kind != 'i' && kind != 'u' && !empty_list) {
    throw py::type_error(std::string(name) + " must be an integer array (uint32 as in Open3D, or any integer "
                         "dtype), got dtype " + dtype_text(source));
  }
  if (empty_list) return {};
  if (source.ndim() != 2 || source.shape(1) != 3) {
    throw py::value_error(std::string(name) + " must have shape (F, 3), got " + shape_text(source));
  }
  auto indices = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(source);
  if (!indices) throw py::error_already_set();
  const std::size_t count = static_cast<std::size_t>(source.shape(0));
  std::vector<TriangleMesh::Indices> out(count);
  const std::int64_t* data = indices.data();
  for (std::size_t i = 0; i < count; ++i) {
    for (int k = 0; k < 3; ++k) {
      const std::int64_t index = data[3 * i + k];
      // uint64 values above INT64_MAX arrive negative from the cast, and are out of range too.
      if (index < 0 || static_cast<std::uint64_t>(index) >= vertex_count) {
        throw py::value_error(std::string(name) + "[" + std::to_string(i) + ", " + std::to_string(k) +
                              "] = " + py::str(source[py::make_tuple(i, k)]).cast<std::string>() +
                              " is out of range for " + std::to_string(vertex_count) + " vertices");
      }
      out[i][k] = static_cast<std::uint32_t>(index);
    }
  }
  return out;
}

Vec3f vec3_argument(py::handle object, const char* name) {
  py::array source = as_array(object, name, "float32");
  if (source.ndim() != 1 || source.shape(0) != 3) {
    throw py::value_error(std::string(name) + " must hold 3 numbers, got shape " + shape_text(source));
  }
  auto values = py::array_t<float, py::array::c_style>::ensure(source);
  return {values.at(0), values.at(1), values.at(2)};
}

std::vector<float> float_per_row(py::handle object, const char* name, std::size_t rows) {
  py::array source = py::isinstance<py::array>(object) ? py::reinterpret_borrow<py::array>(object)
                                                        : as_array(object, name, "float32");
  if (source.ndim() == 0) {
    float value = 0;
    try {
      value = py::float_(py::reinterpret_borrow<py::object>(object)).cast<float>();
    } catch (py::error_already_set&) {
      throw py::type_error(std::string(name) + " must be a number or a float32 array of shape (N,)");
    }
    return std::vector<float>(rows, value);
  }
  if (!source.dtype().equal(py::dtype::of<float>()) && py::isinstance<py::array>(object)) {
    throw py::type_error(std::string(name) + " must be a number or a float32 array, got dtype " + dtype_text(source));
  }
  if (source.ndim() != 1 || static_cast<std::size_t>(source.shape(0)) != rows) {
    throw py::value_error(std::string(name) + " must be a number or have shape (" + std::to_string(rows) +
                          ",), got " + shape_text(source));
  }
  auto values = py::array_t<float, py::array::c_style>::ensure(source);
  return std::vector<float>(values.data(), values.data() + rows);
}

void raise_status(const Status& status, const char* what) {
  if (status.code() == StatusCode::out_of_memory) throw std::bad_alloc();
  throw py::value_error(std::string(what) + ": " + status.message());
}

Executor& executor_for(int nthreads) {
  if (nthreads < 0) throw py::value_error("nthreads must be 0 (all cores) or positive, got " + std::to_string(nthreads));
  // More threads than this would only exhaust the process's resources.
  constexpr int kMaxThreads = 1024;
  if (nthreads > kMaxThreads) throw py::value_error("nthreads must be at most " + std::to_string(kMaxThreads));
  if (nthreads == 0) return default_executor();
  static SerialExecutor serial;
  if (nthreads == 1) return serial;
  // Pools live as long as the process, like the default pool: made once per size and kept.
  static std::mutex mutex;
  static auto* pools = new std::map<int, std::unique_ptr<ThreadPool>>();
  std::lock_guard lock(mutex);
  std::unique_ptr<ThreadPool>& pool = (*pools)[nthreads];
  if (!pool) pool = std::make_unique<ThreadPool>(static_cast<unsigned>(nthreads));
  return *pool;
}

}  // namespace hitscan::python
