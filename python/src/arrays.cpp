#include "arrays.hpp"

#include <algorithm>
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

// A numpy array of a floating dtype: numpy arrays as they are (TypeError for a dtype that is not
// floating, naming the argument), anything else through numpy.asarray(object, dtype=float32).
py::array floating_array(py::handle object, const char* name) {
  if (!py::isinstance<py::array>(object)) return as_array(object, name, "float32");
  auto source = py::reinterpret_borrow<py::array>(object);
  if (source.dtype().kind() != 'f') {
    throw py::type_error(std::string(name) + " must be a float array (float32; float64 and float16 are converted), got dtype " +
                         dtype_text(source));
  }
  return source;
}

// numpy.errstate(over="ignore") while it lives: numpy warns when a cast overflows to inf, which
// here is expected, not the caller's mistake.
class OverflowWarningsOff {
 public:
  OverflowWarningsOff() : state_(py::module_::import("numpy").attr("errstate")(py::arg("over") = "ignore")) {
    state_.attr("__enter__")();
  }
  ~OverflowWarningsOff() {
    try {
      state_.attr("__exit__")(py::none(), py::none(), py::none());
    } catch (py::error_already_set&) {  // restoring numpy's settings cannot fail in practice
    }
  }
  OverflowWarningsOff(const OverflowWarningsOff&) = delete;
  OverflowWarningsOff& operator=(const OverflowWarningsOff&) = delete;

 private:
  py::object state_;
};

// A C-contiguous float32 copy of a floating array, or the array itself when it is one already.
// Values beyond float32's range become inf, which every caller treats as outside the working range.
py::array_t<float, py::array::c_style> as_float32(const py::array& source) {
  if (source.dtype().equal(py::dtype::of<float>()) && (source.flags() & py::array::c_style)) {
    return py::reinterpret_borrow<py::array_t<float, py::array::c_style>>(source);
  }
  py::array_t<float, py::array::c_style> out(std::vector<py::ssize_t>(source.shape(), source.shape() + source.ndim()));
  const OverflowWarningsOff quiet;
  py::module_::import("numpy").attr("copyto")(out, source, py::arg("casting") = "unsafe");
  return out;
}

}  // namespace

FloatRows float_rows(py::handle object, const char* name, py::ssize_t width, int min_ndim, int max_ndim) {
  const py::array source = floating_array(object, name);
  const py::ssize_t ndim = source.ndim();
  if (ndim < min_ndim || ndim > max_ndim || source.shape(ndim - 1) != width) {
    std::string expected = min_ndim == max_ndim && min_ndim == 2 ? "(N, " + std::to_string(width) + ")"
                                                                  : "(..., " + std::to_string(width) + ")";
    if (min_ndim != max_ndim) expected += " with at least " + std::to_string(min_ndim) + " dimensions";
    throw py::value_error(std::string(name) + " must have shape " + expected + ", got " + shape_text(source));
  }
  FloatRows rows;
  rows.array = as_float32(source);
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

std::vector<float> float_per_row(py::handle object, const char* name, const std::vector<py::ssize_t>& lead) {
  std::size_t rows = 1;
  for (py::ssize_t extent : lead) rows *= static_cast<std::size_t>(extent);
  if (!py::isinstance<py::array>(object) && !py::isinstance<py::sequence>(object)) {
    try {
      return std::vector<float>(rows, py::float_(py::reinterpret_borrow<py::object>(object)).cast<float>());
    } catch (py::error_already_set&) {
      throw py::type_error(std::string(name) + " must be a number or a float array");
    }
  }
  const py::array source = floating_array(object, name);
  if (source.ndim() == 0) return std::vector<float>(rows, as_float32(source).data()[0]);
  if (!std::equal(lead.begin(), lead.end(), source.shape(), source.shape() + source.ndim())) {
    std::string expected = "(";
    for (std::size_t i = 0; i < lead.size(); ++i) expected += (i ? ", " : "") + std::to_string(lead[i]);
    expected += lead.size() == 1 ? ",)" : ")";
    throw py::value_error(std::string(name) + " must be a number or have shape " + expected + ", got " +
                          shape_text(source));
  }
  const auto values = as_float32(source);
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
