#include "tools/street_scene.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <utility>
#include <string>

namespace hitscan::tools {
namespace {

constexpr double kPeriod = 40.0;
constexpr double kStairStart = 26.0, kStairRun = 0.3, kStairRise = 0.17;
constexpr int kStairs = 5;
constexpr double kHoleX0 = 22.2, kHoleX1 = 22.8, kHoleHalfWidth = 1.5;
// A pillar on the road, between the camera and the sign at x = 24 on the y < 0 wall.
constexpr double kPillarX0 = 10.4, kPillarX1 = 11.0, kPillarY0 = -2.1, kPillarY1 = -1.5, kPillarHeight = 2.5;

/// A linear piece of the floor profile over [x0, x1) of one period.
struct Piece {
  double x0, x1, z0, z1;
};

std::vector<Piece> profile_pieces() {
  std::vector<Piece> pieces{{0, 6, 0.15, 0.15},   {6, 12, 0, 0},          {12, 16, 0.15, 0.15},
                            {16, 20, 0.15, 0.65}, {20, kStairStart, 0.65, 0.65}};
  for (int k = 0; k < kStairs; ++k) {
    const double z = 0.65 + kStairRise * (k + 1);
    pieces.push_back({kStairStart + kStairRun * k, kStairStart + kStairRun * (k + 1), z, z});
  }
  const double landing = 0.65 + kStairRise * kStairs;
  pieces.push_back({kStairStart + kStairRun * kStairs, 32, landing, landing});
  pieces.push_back({32, kPeriod, landing, 0.15});
  return pieces;
}

/// x's place in its 40 m period, snapped onto a break it lies within rounding of: fmod(67.2, 40) is
/// 27.200000000000003, which would otherwise miss the step at 27.2.
double local_x(double x) {
  static const std::vector<double> breaks = [] {
    std::vector<double> b;
    for (const Piece& p : profile_pieces()) b.push_back(p.x0);
    b.push_back(kHoleX0);
    b.push_back(kHoleX1);
    b.push_back(kPeriod);
    return b;
  }();
  const double local = std::fmod(x, kPeriod);
  for (double b : breaks) {
    if (std::abs(local - b) < 1e-9 * std::max(1.0, x)) return b == kPeriod ? 0.0 : b;
  }
  return local;
}

/// Height of the profile just right of x (side = +1) or just left of it (side = -1), x in [0, length].
double profile_height(double x, int side) {
  static const std::vector<Piece> pieces = profile_pieces();
  double local = local_x(x);
  if (side < 0 && local == 0.0 && x > 0.0) local = kPeriod;
  for (const Piece& p : pieces) {
    const bool inside = side > 0 ? (local >= p.x0 && local < p.x1) : (local > p.x0 && local <= p.x1);
    if (inside) return p.z0 + (p.z1 - p.z0) * (local - p.x0) / (p.x1 - p.x0);
  }
  return pieces.front().z0;  // local == 0 from the left at x == 0
}

bool in_hole(double x, double y) {
  const double local = local_x(x);
  return local >= kHoleX0 && local < kHoleX1 && std::abs(y) < kHoleHalfWidth;
}

/// Uniform in [-1, 1] from a hash of the vertex's grid address, so that a vertex two chunks
/// share gets the same noise in both.
double grid_noise(std::uint32_t seed, std::uint64_t surface, std::uint64_t i, std::uint64_t j) {
  std::uint64_t z = (static_cast<std::uint64_t>(seed) << 32) ^ (surface << 60) ^ (i * 0x9E3779B97F4A7C15ull) ^
                    (j * 0xC2B2AE3D27D4EB4Full);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;  // splitmix64's finaliser
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

/// A column of the floor grid: its x and the floor height there (one side of a step: a step
/// has two columns at the same x).
struct Column {
  double x, z;
};

/// Sorted grid lines with the breaks among them: a grid line closer than a thousandth of a cell to
/// a break (or to another line) is dropped, a break is never dropped.
std::vector<double> merge_lines(std::vector<double> grid, const std::vector<double>& breaks, double cell) {
  std::vector<std::pair<double, bool>> lines;
  for (double x : grid) lines.push_back({x, false});
  for (double x : breaks) lines.push_back({x, true});
  std::sort(lines.begin(), lines.end());
  std::vector<std::pair<double, bool>> merged;
  for (const auto& line : lines) {
    if (!merged.empty() && line.first - merged.back().first < cell * 1e-3) {
      if (line.second && !merged.back().second) merged.back() = line;
      continue;
    }
    merged.push_back(line);
  }
  std::vector<double> out;
  for (const auto& line : merged) out.push_back(line.first);
  return out;
}

std::vector<Column> floor_columns(const StreetOptions& o) {
  std::vector<double> xs;
  const auto n = static_cast<std::size_t>(std::ceil(o.length / o.cell));
  for (std::size_t i = 0; i <= n; ++i) xs.push_back(std::min<double>(o.length, o.cell * static_cast<double>(i)));
  std::vector<double> period_breaks;
  for (const Piece& p : profile_pieces()) period_breaks.push_back(p.x0);
  period_breaks.push_back(kHoleX0);
  period_breaks.push_back(kHoleX1);
  std::vector<double> breaks;
  for (double base = 0; base < o.length; base += kPeriod) {
    for (double b : period_breaks) {
      if (base + b > 0 && base + b < o.length) breaks.push_back(base + b);
    }
  }
  std::vector<Column> columns;
  for (double x : merge_lines(std::move(xs), breaks, o.cell)) {
    const double left = profile_height(x, -1), right = profile_height(x, +1);
    if (x > 0 && std::abs(left - right) > 1e-9) columns.push_back({x, left});  // a step: its riser
    columns.push_back({x, right});
  }
  return columns;
}

std::vector<double> floor_rows(const StreetOptions& o) {
  std::vector<double> ys;
  const double half = o.width * 0.5;
  const auto n = static_cast<std::size_t>(std::ceil(o.width / o.cell));
  for (std::size_t j = 0; j <= n; ++j) ys.push_back(std::min(half, -half + o.cell * static_cast<double>(j)));
  std::vector<double> breaks;
  if (kHoleHalfWidth < half) breaks = {-kHoleHalfWidth, kHoleHalfWidth};
  return merge_lines(std::move(ys), breaks, o.cell);
}

Vec3f vec(double x, double y, double z) {
  return {static_cast<float>(x), static_cast<float>(y), static_cast<float>(z)};
}

bool in_pillar(double x, double y) {
  const double local = local_x(x);
  return local >= kPillarX0 && local <= kPillarX1 && y >= kPillarY0 && y <= kPillarY1;
}

/// The pillar of the period starting at `base`: a closed box from the road (z = 0) up, four sides
/// and a top, facing out, no noise (a smooth column scans well).
void add_pillar(double base, StreetChunk& chunk) {
  const auto first = static_cast<std::uint32_t>(chunk.positions.size());
  for (int k = 0; k < 8; ++k) {
    chunk.positions.push_back(vec(base + ((k & 1) ? kPillarX1 : kPillarX0), (k & 2) ? kPillarY1 : kPillarY0,
                                  (k & 4) ? kPillarHeight : 0.0));
  }
  // Corner k has x bit 1, y bit 2, z bit 4; each quad counter-clockwise seen from outside.
  const std::uint32_t quads[5][4] = {{4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& q : quads) {
    chunk.triangles.push_back({first + q[0], first + q[1], first + q[2]});
    chunk.triangles.push_back({first + q[0], first + q[2], first + q[3]});
  }
}

/// Builds the chunk holding the grid strips [s0, s1) (strip s lies between columns s and s + 1).
StreetChunk make_chunk(const StreetOptions& o, const std::vector<Column>& cols, const std::vector<double>& ys,
                       std::size_t s0, std::size_t s1) {
  StreetChunk chunk;
  const std::size_t rows = ys.size();
  const auto wall_rows = static_cast<std::size_t>(std::ceil(o.wall_height / o.cell));
  const std::size_t per_column = rows + 2 * wall_rows;
  const auto floor_point = [&](std::size_t i, std::size_t j) {
    return vec(cols[i].x, ys[j], cols[i].z + o.noise * grid_noise(o.seed, 0, i, j));
  };
  for (std::size_t i = s0; i <= s1; ++i) {
    for (std::size_t j = 0; j < rows; ++j) chunk.positions.push_back(floor_point(i, j));
    for (int side = 0; side < 2; ++side) {
      const double y = side == 0 ? ys.front() : ys.back();
      for (std::size_t k = 1; k <= wall_rows; ++k) {
        const double z = cols[i].z + o.wall_height * static_cast<double>(k) / static_cast<double>(wall_rows);
        chunk.positions.push_back(vec(cols[i].x, y + o.noise * grid_noise(o.seed, 1 + side, i, k), z));
      }
    }
  }
  const auto floor_index = [&](std::size_t i, std::size_t j) {
    return static_cast<std::uint32_t>((i - s0) * per_column + j);
  };
  // Row k of a wall (k = 0 is the floor's edge vertex).
  const auto wall_index = [&](std::size_t i, int side, std::size_t k) {
    if (k == 0) return floor_index(i, side == 0 ? 0 : rows - 1);
    return static_cast<std::uint32_t>((i - s0) * per_column + rows + side * wall_rows + (k - 1));
  };
  for (std::size_t i = s0; i < s1; ++i) {
    const double xm = 0.5 * (cols[i].x + cols[i + 1].x);
    for (std::size_t j = 0; j + 1 < rows; ++j) {
      if (cols[i].x != cols[i + 1].x && in_hole(xm, 0.5 * (ys[j] + ys[j + 1]))) continue;
      const std::uint32_t a = floor_index(i, j), b = floor_index(i + 1, j), c = floor_index(i + 1, j + 1),
                          d = floor_index(i, j + 1);
      chunk.triangles.push_back({a, b, c});
      chunk.triangles.push_back({a, c, d});
    }
    if (cols[i].x == cols[i + 1].x) continue;  // a step's riser: the walls have no strip there
    for (std::size_t k = 0; k < wall_rows; ++k) {
      // Side 0, the wall at y = -width/2, faces +y; side 1, at +width/2, faces -y.
      const std::uint32_t a0 = wall_index(i, 0, k), b0 = wall_index(i + 1, 0, k), c0 = wall_index(i + 1, 0, k + 1),
                          d0 = wall_index(i, 0, k + 1);
      chunk.triangles.push_back({a0, c0, b0});
      chunk.triangles.push_back({a0, d0, c0});
      const std::uint32_t a1 = wall_index(i, 1, k), b1 = wall_index(i + 1, 1, k), c1 = wall_index(i + 1, 1, k + 1),
                          d1 = wall_index(i, 1, k + 1);
      chunk.triangles.push_back({a1, b1, c1});
      chunk.triangles.push_back({a1, c1, d1});
    }
  }
  return chunk;
}

bool positive_finite(float v) { return std::isfinite(v) && v > 0.0f; }

}  // namespace

StreetOptions street_options_for_triangles(std::size_t triangles) {
  StreetOptions o;
  const double target = static_cast<double>(std::max<std::size_t>(triangles, 1000));
  const double per_cell2 = static_cast<double>(o.length) * (2.0 * o.width + 4.0 * o.wall_height);
  o.cell = static_cast<float>(std::sqrt(per_cell2 / target));
  // The grid's rounding and the breaks' extra lines add a few percent: correct the cell by the
  // count of the grid it gives (the hole's few cells left aside), a few times.
  for (int round = 0; round < 4; ++round) {
    const std::vector<Column> cols = floor_columns(o);
    const double rows = static_cast<double>(floor_rows(o).size());
    const double wall_rows = std::ceil(o.wall_height / o.cell);
    double count = 0;
    for (std::size_t i = 0; i + 1 < cols.size(); ++i) {
      count += 2.0 * (rows - 1.0) + (cols[i].x != cols[i + 1].x ? 4.0 * wall_rows : 0.0);
    }
    o.cell = static_cast<float>(o.cell * std::sqrt(count / target));
  }
  return o;
}

double street_floor_height(const StreetOptions& options, double x, double y) {
  if (!(x >= 0 && x <= options.length) || !(std::abs(y) <= options.width * 0.5) || in_hole(x, y)) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (in_pillar(x, y) && -options.width * 0.5 <= kPillarY0) return kPillarHeight;
  return std::max(profile_height(x, -1), profile_height(x, +1));
}

std::size_t StreetScene::triangle_count() const {
  std::size_t n = 0;
  for (const StreetChunk& c : chunks) n += c.triangles.size();
  return n;
}

Result<TriangleMesh> StreetScene::merged_mesh() const {
  std::vector<Vec3f> positions;
  std::vector<TriangleMesh::Indices> triangles;
  for (const StreetChunk& c : chunks) {
    const auto base = static_cast<std::uint32_t>(positions.size());
    positions.insert(positions.end(), c.positions.begin(), c.positions.end());
    for (const TriangleMesh::Indices& t : c.triangles) triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
  }
  return TriangleMesh::make(std::move(positions), std::move(triangles));
}

Result<StreetScene> make_street_scene(const StreetOptions& o) {
  if (!positive_finite(o.length) || !positive_finite(o.width) || !positive_finite(o.wall_height) ||
      !positive_finite(o.cell) || !positive_finite(o.chunk_length) || !(o.noise >= 0.0f) || !std::isfinite(o.noise)) {
    return Status{StatusCode::invalid_argument,
                  "make_street_scene: length, width, wall height, cell and chunk length must be positive and "
                  "finite, noise finite and not negative"};
  }
  const double columns = std::ceil(o.length / o.cell) + 64, rows = std::ceil(o.width / o.cell) + 3,
               wall = std::ceil(o.wall_height / o.cell);
  if (columns * (rows + 2 * wall) > 2147483648.0 || columns * rows * 2 > 2147483648.0) {
    return Status{StatusCode::invalid_argument, "make_street_scene: cell too small (over 2^31 vertices)"};
  }
  const std::vector<Column> cols = floor_columns(o);
  const std::vector<double> ys = floor_rows(o);
  std::vector<StreetChunk> chunks;
  std::size_t s0 = 0;
  while (s0 + 1 < cols.size()) {
    const auto chunk_of = [&](std::size_t s) {
      return std::floor(0.5 * (cols[s].x + cols[s + 1].x) / o.chunk_length);
    };
    std::size_t s1 = s0 + 1;
    while (s1 + 1 < cols.size() && chunk_of(s1) == chunk_of(s0)) ++s1;
    chunks.push_back(make_chunk(o, cols, ys, s0, s1));
    s0 = s1;
  }
  for (double base = 0; base + kPillarX1 <= o.length; base += kPeriod) {
    if (kPillarY0 < -o.width * 0.5) break;  // a street too narrow for it
    const double centre = base + 0.5 * (kPillarX0 + kPillarX1);
    const auto c = static_cast<std::size_t>(std::floor(centre / o.chunk_length));
    add_pillar(base, chunks[std::min(c, chunks.size() - 1)]);
  }

  std::vector<Vec3f> route;
  for (double x = 1.0; x < o.length - 1.0 + 1e-9; x += 2.0) {
    route.push_back(vec(x, 0.0, std::max(profile_height(x, -1), profile_height(x, +1)) + 0.3));
  }
  if (route.size() < 2) route.push_back(vec(o.length * 0.5, 0.0, profile_height(o.length * 0.5, +1) + 0.3));
  if (route.size() < 2) route.insert(route.begin(), vec(0.0, 0.0, profile_height(0.0, +1) + 0.3));

  std::vector<Vec3f> sign_points, sign_normals;
  const double half = o.width * 0.5;
  for (double base = 0; base < o.length; base += kPeriod) {
    for (const auto& [lx, side] : {std::pair{10.0, 1}, std::pair{24.0, -1}, std::pair{34.0, 1}}) {
      const double x = base + lx;
      if (x >= o.length) continue;
      sign_points.push_back(vec(x, side * half, profile_height(x, +1) + 1.8));
      sign_normals.push_back(vec(0, -side, 0));
    }
  }

  const double eye_x = std::min(0.5, o.length * 0.5);
  const Vec3f eye = vec(eye_x, 0.0, profile_height(eye_x, +1) + 1.6);
  const double tilt = 15.0 * std::numbers::pi / 180.0;
  const Result<Quatf> rotation = look_rotation(vec(std::cos(tilt), 0.0, -std::sin(tilt)), {0, 0, 1});
  if (!rotation.ok()) return rotation.status();
  PinholeIntrinsics intrinsics;
  intrinsics.width = 640;
  intrinsics.height = 480;
  intrinsics.fx = intrinsics.fy = static_cast<float>(320.0 / std::tan(std::numbers::pi / 6.0));
  intrinsics.cx = 320;
  intrinsics.cy = 240;
  Result<PinholeCamera> camera = PinholeCamera::make(intrinsics, rotation.value(), eye);
  if (!camera.ok()) return camera.status();
  return StreetScene{o, std::move(chunks), std::move(route), std::move(sign_points), std::move(sign_normals),
                     std::move(camera).value(), Vec3f{0.0f, 0.0f, -9.81f}};
}

}  // namespace hitscan::tools
