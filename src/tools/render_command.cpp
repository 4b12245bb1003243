#include "tools/render_command.hpp"

#include <iomanip>
#include <memory>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>

#include "hitscan/io/image.hpp"
#include "hitscan/io/mesh_loader.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"
#include "tools/demo_scene.hpp"
#include "tools/heatmap.hpp"
#include "tools/normal_render.hpp"
#include "tools/output_file.hpp"
#include "tools/progress.hpp"

namespace hitscan::tools {
namespace {

// Bounds each side of the image, so a mistyped size is a usage error rather than a huge allocation.
constexpr int kMaxImageSide = 16384;

// A mesh is seen from the front right and a little above (y up), so that three sides of a box
// show with different shades.
constexpr Vec3f kMeshViewDirection{1.0f, 0.6f, 1.4f};

// The picture and what it shows ("12 shapes", "5000 triangles"), or the exit code of a failure
// already reported on err.
struct Picture {
  NormalRender render;
  std::string subject;
  /// The heat map's summary line, when one was drawn.
  std::string heatmap_line;
  int exit_code = kExitSuccess;
};

Picture render_demo_scene(const RenderOptions& options, std::ostream& err) {
  Picture picture;
  Result<DemoScene> scene = make_demo_scene();
  if (!scene) {
    err << "hitscan render: " << scene.status().message() << '\n';
    picture.exit_code = kExitFailure;
    return picture;
  }
  CameraDef camera_def = scene.value().camera;
  camera_def.width = options.width;
  camera_def.height = options.height;
  const Result<PinholeCamera> camera = PinholeCamera::make(camera_def);
  if (!camera) {
    err << "hitscan render: " << camera.status().message() << '\n';
    picture.exit_code = kExitUsage;
    return picture;
  }
  const std::span<const AnyShape> shapes = scene.value().shapes;
  picture.render = render_normals(shapes, camera.value());
  picture.subject = std::to_string(shapes.size()) + " shapes";
  return picture;
}

Picture render_mesh(const RenderOptions& options, std::ostream& err) {
  Picture picture;
  const bool terminal = is_terminal_stderr(err);
  Result<TriangleMesh> loaded = [&] {
    Progress progress(err, terminal, "loading " + options.mesh);
    return run_with_ticker(progress, terminal, [&] { return io::load_mesh(options.mesh); });
  }();
  if (!loaded) {
    err << "hitscan render: " << loaded.status().message() << '\n';
    picture.exit_code = loaded.status().code() == StatusCode::out_of_memory ? kExitFailure : kExitUsage;
    return picture;
  }
  auto mesh = std::make_shared<const TriangleMesh>(std::move(loaded).value());
  const Result<MeshBvh> bvh = [&] {
    Progress progress(err, terminal, "building the BVH");
    return run_with_ticker(progress, terminal, [&] { return MeshBvh::build(mesh); });
  }();
  if (!bvh) {
    err << "hitscan render: " << options.mesh << ": " << bvh.status().message() << '\n';
    picture.exit_code = kExitFailure;
    return picture;
  }
  CameraDef camera_def = default_camera_def();
  camera_def.width = options.width;
  camera_def.height = options.height;
  camera_def = frame_bounds(camera_def, mesh->bounds(), kMeshViewDirection);
  const Result<PinholeCamera> camera = PinholeCamera::make(camera_def);
  if (!camera) {
    err << "hitscan render: " << options.mesh << ": no camera frames the mesh: " << camera.status().message() << '\n';
    picture.exit_code = kExitFailure;
    return picture;
  }
  Progress progress(err, terminal, "rendering", static_cast<std::uint64_t>(camera.value().height()));
  picture.render = render_normals(bvh.value(), camera.value(), &progress);
  picture.subject = std::to_string(mesh->triangle_count()) + " triangles";
  if (options.heatmap) {
    const Heatmap heat = cost_heatmap(bvh.value(), camera.value());
    picture.render.image = side_by_side(picture.render.image, heat.image);
    std::ostringstream line;
    line << "heatmap: cost = nodes + triangles a ray, 0 (dark blue) .. " << heat.max_cost << " (red), mean "
         << std::fixed << std::setprecision(1) << heat.mean_nodes << " nodes and " << heat.mean_triangles
         << " triangles\n";
    picture.heatmap_line = line.str();
  }
  return picture;
}

}  // namespace

void add_render_command(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<RenderOptions>(default_render_options());
  CLI::App* command = app.add_subcommand(
      "render",
      "Render a mesh file, or without one the built-in scene of every analytic shape, one ray per pixel, shaded by "
      "normal, to a PNG or JPEG");
  command->add_option("mesh", options->mesh,
                      "Mesh file to render (any format assimp reads), seen from an automatic camera; without it, "
                      "the built-in scene");
  command->add_option("-o,--output", options->output,
                      "Image to write, PNG (.png) or JPEG (.jpg, .jpeg, quality 90); its directory is created if "
                      "missing")
      ->capture_default_str();
  command->add_option("--width", options->width, "Image width in pixels")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxImageSide));
  command->add_option("--height", options->height, "Image height in pixels")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxImageSide));
  command->add_flag("--heatmap", options->heatmap,
                    "Beside the picture, each pixel's BVH traversal cost (nodes + triangles tested) as a heat map "
                    "with its scale (a mesh only)");
  command->callback([options, &context] { context.exit_code = run_render(*options, context.out, context.err); });
}

int run_render(const RenderOptions& options, std::ostream& out, std::ostream& err) {
  if (options.heatmap && options.mesh.empty()) {
    err << "hitscan render: --heatmap needs a mesh file (the built-in scene has no BVH)\n";
    return kExitUsage;
  }
  if (const Result<io::ImageFormat> format = io::image_format(options.output); !format) {
    err << "hitscan render: " << format.status().message() << '\n';
    return kExitUsage;
  }
  if (const Status status = make_output_directory(options.output); !status.ok()) {
    err << "hitscan render: " << status.message() << '\n';
    return kExitFailure;
  }
  const Picture picture = options.mesh.empty() ? render_demo_scene(options, err) : render_mesh(options, err);
  if (picture.exit_code != kExitSuccess) return picture.exit_code;
  const NormalRender& render = picture.render;

  const Status status = io::write_image(render.image, options.output);
  if (!status.ok()) {
    err << "hitscan render: " << status.message() << '\n';
    return kExitFailure;
  }

  const double mrays_per_second =
      render.trace_seconds > 0 ? static_cast<double>(render.rays) / render.trace_seconds * 1e-6 : 0.0;
  out << "render: " << options.width << 'x' << options.height << ", " << render.rays << " rays, " << picture.subject
      << ", " << std::fixed << std::setprecision(1) << mrays_per_second << " Mrays/s, " << options.output << '\n';
  out << picture.heatmap_line;
  return kExitSuccess;
}

}  // namespace hitscan::tools
