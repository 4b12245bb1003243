#include "tools/drape_command.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <memory>
#include <new>
#include <sstream>
#include <vector>

#include <CLI/CLI.hpp>

#include "hitscan/io/image.hpp"
#include "hitscan/io/mesh_loader.hpp"
#include "tools/ar_route_file.hpp"
#include "tools/ar_scenario.hpp"
#include "tools/output_file.hpp"
#include "tools/street_scene.hpp"

namespace hitscan::tools {
namespace {

// Bounds each side of the image and the frame count, so that a mistyped value is a usage error
// rather than a huge allocation or a run that never ends.
constexpr int kMaxImageSide = 16384;
constexpr int kMaxFrames = 10000;

// The input of the scenario, or the exit code of a failure already reported on err.
struct Prepared {
  ArInput input;
  std::string subject;
  int exit_code = kExitSuccess;
};

// Input the user gave that cannot be used is a usage error; running out of memory is not.
int input_failure_exit_code(const Status& status) {
  return status.code() == StatusCode::out_of_memory ? kExitFailure : kExitUsage;
}

std::string number_text(double value, int decimals) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(decimals) << value;
  return text.str();
}

// A vertex on the seam a street chunk shares with its neighbours: the columns at its least and
// greatest x (the noise moves vertices along z and y only, so x is exact there).
struct SeamVertex {
  std::size_t index = 0;
  Vec3f position{};
};

std::vector<SeamVertex> seam_vertices(const StreetChunk& chunk) {
  float lo = kInfinity<float>, hi = -kInfinity<float>;
  for (const Vec3f p : chunk.positions) lo = std::min(lo, p.x), hi = std::max(hi, p.x);
  std::vector<SeamVertex> seam;
  for (std::size_t k = 0; k < chunk.positions.size(); ++k) {
    if (chunk.positions[k].x == lo || chunk.positions[k].x == hi) seam.push_back({k, chunk.positions[k]});
  }
  return seam;
}

Prepared prepare_street(const DrapeOptions& options, std::ostream& err) {
  Prepared prepared;
  Result<StreetScene> made = make_street_scene();
  if (!made) {
    err << "hitscan drape: built-in street: " << made.status().message() << '\n';
    prepared.exit_code = kExitFailure;
    return prepared;
  }
  StreetScene street = std::move(made).value();
  // The street's camera at the size asked for, keeping its horizontal field of view.
  PinholeIntrinsics intrinsics = street.camera.intrinsics();
  const float scale = static_cast<float>(options.width) / static_cast<float>(intrinsics.width);
  intrinsics.fx *= scale;
  intrinsics.fy *= scale;
  intrinsics.cx = 0.5f * static_cast<float>(options.width);
  intrinsics.cy = 0.5f * static_cast<float>(options.height);
  intrinsics.width = options.width;
  intrinsics.height = options.height;
  Result<hitscan::PinholeCamera> camera =
      hitscan::PinholeCamera::make(intrinsics, street.camera.rotation(), street.camera.position());
  if (!camera) {
    err << "hitscan drape: " << camera.status().message() << '\n';
    prepared.exit_code = kExitUsage;
    return prepared;
  }

  ArInput& input = prepared.input;
  input.camera = camera.value();
  input.up = normalize(-street.gravity);
  input.route = street.route;
  input.sign_points = street.sign_points;
  input.sign_normals = street.sign_normals;
  const std::size_t chunk_count = street.chunks.size();
  auto seams = std::make_shared<std::vector<std::vector<SeamVertex>>>();
  for (const StreetChunk& chunk : street.chunks) seams->push_back(seam_vertices(chunk));
  input.chunks = std::move(street.chunks);
  // A rescan: the chunk of the street generated again with other noise, but for its seams.
  const StreetOptions street_options = street.options;
  input.rescan = [street_options, chunk_count, seams](int frame) -> Result<std::pair<std::size_t, StreetChunk>> {
    StreetOptions rescan_options = street_options;
    rescan_options.seed = street_options.seed + static_cast<std::uint32_t>(frame) + 1;
    Result<StreetScene> rescanned = make_street_scene(rescan_options);
    if (!rescanned) return rescanned.status();
    const std::size_t index = static_cast<std::size_t>(frame) % chunk_count;
    if (rescanned.value().chunks.size() != chunk_count) {
      return Status{StatusCode::invalid_argument, "a rescan of the street gave another number of chunks"};
    }
    StreetChunk& chunk = rescanned.value().chunks[index];
    for (const SeamVertex& seam : (*seams)[index]) {
      if (seam.index < chunk.positions.size()) chunk.positions[seam.index] = seam.position;
    }
    return std::pair{index, std::move(chunk)};
  };
  const float length = street.options.length;
  prepared.subject = "street " + number_text(length, std::floor(length) == length ? 0 : 1) + " m";
  return prepared;
}

Prepared prepare_mesh(const DrapeOptions& options, std::ostream& err) {
  Prepared prepared;
  if (options.route.empty()) {
    err << "hitscan drape: " << options.mesh << ": a mesh needs a route file too (hitscan drape MESH ROUTE.csv)\n";
    prepared.exit_code = kExitUsage;
    return prepared;
  }
  Result<std::vector<Vec3f>> route = read_route_csv(options.route);
  if (!route) {
    err << "hitscan drape: " << route.status().message() << '\n';
    prepared.exit_code = input_failure_exit_code(route.status());
    return prepared;
  }
  Result<TriangleMesh> mesh = io::load_mesh(options.mesh, {.read_normals = false});
  if (!mesh) {
    err << "hitscan drape: " << mesh.status().message() << '\n';
    prepared.exit_code = input_failure_exit_code(mesh.status());
    return prepared;
  }
  ArInput& input = prepared.input;
  const std::span<const Vec3f> positions = mesh.value().positions();
  const std::span<const TriangleMesh::Indices> triangles = mesh.value().triangles();
  input.chunks.push_back({{positions.begin(), positions.end()}, {triangles.begin(), triangles.end()}});
  input.route = std::move(route).value();
  input.up = options.up == "x" ? Vec3f{1, 0, 0} : options.up == "y" ? Vec3f{0, 1, 0} : Vec3f{0, 0, 1};
  input.width = options.width;
  input.height = options.height;
  prepared.subject = "mesh " + options.mesh;
  return prepared;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t half = values.size() / 2;
  return values.size() % 2 == 1 ? values[half] : 0.5 * (values[half - 1] + values[half]);
}

int run_drape_unguarded(const DrapeOptions& options, std::ostream& out, std::ostream& err) {
  if (const Result<io::ImageFormat> format = io::image_format(options.output); !format) {
    err << "hitscan drape: " << format.status().message() << '\n';
    return kExitUsage;
  }
  for (const std::string* output : {&options.output, &options.route_output}) {
    if (output->empty()) continue;  // no route table asked for
    if (const Status status = make_output_directory(*output); !status.ok()) {
      err << "hitscan drape: " << status.message() << '\n';
      return kExitFailure;
    }
  }
  Prepared prepared = options.mesh.empty() ? prepare_street(options, err) : prepare_mesh(options, err);
  if (prepared.exit_code != kExitSuccess) return prepared.exit_code;

  const Result<ArRun> result = run_ar_scenario(prepared.input, options.frames);
  if (!result) {
    err << "hitscan drape: " << (options.mesh.empty() ? "built-in street" : options.mesh) << ": "
        << result.status().message() << '\n';
    const StatusCode code = result.status().code();
    const bool user_input = !options.mesh.empty() &&
                            (code == StatusCode::invalid_argument || code == StatusCode::out_of_range);
    return user_input ? kExitUsage : kExitFailure;
  }
  const ArRun& run = result.value();

  if (const Status status = io::write_image(run.image, options.output); !status.ok()) {
    err << "hitscan drape: " << status.message() << '\n';
    return kExitFailure;
  }
  if (!options.route_output.empty()) {
    if (const Status status = write_draped_route_csv(run.route, options.route_output); !status.ok()) {
      err << "hitscan drape: " << status.message() << '\n';
      return kExitFailure;
    }
  }

  const std::pair<const char*, const std::vector<double>*> stages[] = {
      {"chunk_update", &run.times.chunk_update}, {"depth_map", &run.times.depth_map}, {"drape", &run.times.drape},
      {"occlusion", &run.times.occlusion},       {"render", &run.times.render}};
  for (const auto& [name, times] : stages) {
    out << "stage " << name << ": median " << number_text(median(*times), 2) << " ms over " << times->size()
        << " frames\n";
  }
  const DrapedRoute& route = run.route;
  out << "drape: " << prepared.subject << ", " << run.triangles << " triangles, route "
      << number_text(route.route_length, 1) << " m, " << route.points.size() << " points (" << route.on_surface
      << " on surface, " << route.gap_bridged << " bridged, " << route.no_surface << " no surface), " << run.signs
      << " signs, " << options.output
      << (options.route_output.empty() ? "" : ", " + options.route_output) << '\n';
  return kExitSuccess;
}

}  // namespace

void add_drape_command(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<DrapeOptions>(default_drape_options());
  CLI::App* command = app.add_subcommand(
      "drape",
      "The AR scenario: drape a route over a scanned mesh (without one, the built-in street), place arrows and "
      "signs, test them for occlusion from the camera, and write the picture, the draped route and stage timings");
  command->add_option("mesh", options->mesh,
                      "Mesh file (any format assimp reads, e.g. a PLY from a phone scan); without it, the built-in "
                      "street");
  command->add_option("route", options->route,
                      "Route to drape over MESH: x,y,z per line (an optional header line), at least 2 points");
  command->add_option("-o,--output", options->output, "Image to write, PNG or JPEG by its extension (.png, .jpg, .jpeg; its directory is created if missing)")
      ->capture_default_str();
  command->add_option("--route-out", options->route_output,
                      "Draped route to write as CSV: x,y,z,nx,ny,nz,distance,status (empty: not written)")
      ->capture_default_str();
  command->add_option("--frames", options->frames, "Frames to run; timings are medians over them")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxFrames));
  command->add_option("--width", options->width, "Image width in pixels")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxImageSide));
  command->add_option("--height", options->height, "Image height in pixels")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxImageSide));
  command->add_option("--up", options->up, "MESH's up axis; gravity points along its negative (many scans are y-up)")
      ->check(CLI::IsMember({"x", "y", "z"}))
      ->capture_default_str();
  command->callback([options, &context] { context.exit_code = run_drape(*options, context.out, context.err); });
}

int run_drape(const DrapeOptions& options, std::ostream& out, std::ostream& err) {
  try {
    return run_drape_unguarded(options, out, err);
  } catch (const std::bad_alloc&) {
    err << "hitscan drape: out of memory\n";
    return kExitFailure;
  }
}

}  // namespace hitscan::tools
