#include "tools/render_command.hpp"

#include <filesystem>
#include <iomanip>
#include <memory>
#include <system_error>

#include <CLI/CLI.hpp>

#include "hitscan/io/image.hpp"
#include "tools/demo_scene.hpp"
#include "tools/normal_render.hpp"

namespace hitscan::tools {
namespace {

// Bounds each side of the image, so a mistyped size is a usage error rather than a huge allocation.
constexpr int kMaxImageSide = 16384;

}  // namespace

void add_render_command(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<RenderOptions>(default_render_options());
  CLI::App* command = app.add_subcommand(
      "render", "Render the built-in scene of every analytic shape, one ray per pixel, shaded by normal, to a PNG");
  command->add_option("-o,--output", options->output, "PNG file to write (its directory is created if missing)")
      ->capture_default_str();
  command->add_option("--width", options->width, "Image width in pixels")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxImageSide));
  command->add_option("--height", options->height, "Image height in pixels")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxImageSide));
  command->callback([options, &context] { context.exit_code = run_render(*options, context.out, context.err); });
}

int run_render(const RenderOptions& options, std::ostream& out, std::ostream& err) {
  Result<DemoScene> scene = make_demo_scene();
  if (!scene) {
    err << "hitscan render: " << scene.status().message() << '\n';
    return kExitFailure;
  }
  CameraDef camera_def = scene.value().camera;
  camera_def.width = options.width;
  camera_def.height = options.height;
  const Result<PinholeCamera> camera = PinholeCamera::make(camera_def);
  if (!camera) {
    err << "hitscan render: " << camera.status().message() << '\n';
    return kExitUsage;
  }

  const std::span<const AnyShape> shapes = scene.value().shapes;
  const NormalRender render = render_normals(shapes, camera.value());

  const std::filesystem::path directory = std::filesystem::path(options.output).parent_path();
  if (!directory.empty()) {
    std::error_code error;
    std::filesystem::create_directories(directory, error);
    if (error) {
      err << "hitscan render: cannot create directory '" << directory.string() << "' for '" << options.output
          << "': " << error.message() << '\n';
      return kExitFailure;
    }
  }
  if (const Status status = io::write_png(render.image, options.output); !status.ok()) {
    err << "hitscan render: " << status.message() << '\n';
    return kExitFailure;
  }

  const double mrays_per_second =
      render.trace_seconds > 0 ? static_cast<double>(render.rays) / render.trace_seconds * 1e-6 : 0.0;
  out << "render: " << options.width << 'x' << options.height << ", " << render.rays << " rays, " << shapes.size()
      << " shapes, " << std::fixed << std::setprecision(1) << mrays_per_second << " Mrays/s, " << options.output
      << '\n';
  return kExitSuccess;
}

}  // namespace hitscan::tools
