// Spheres, capsules and boxes against a mesh through its BVH, compared with brute force: the pair
// kernel of contact_triangle.hpp run on every usable triangle of the mesh. The BVH must find the
// same set of touching triangles with bit-identical contacts, the same deepest one, and the same
// overlap answer; the buffer form must give the leading part of the vector form. On generated
// meshes (a triangle soup, an icosphere, a mesh with degenerate triangles) and on CGAL's bunny
// and elephant.

#include "hitscan/mesh/mesh_contact.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "hitscan/geometry/contact_triangle.hpp"
#include "hitscan/io/mesh_loader.hpp"
#include "mesh/mesh_test_meshes.hpp"

namespace hitscan {
namespace {

bool same(const Contactf& a, const Contactf& b) {
  return a.touching == b.touching && a.point_on_a == b.point_on_a && a.point_on_b == b.point_on_b &&
         a.normal == b.normal && a.depth == b.depth;
}

bool deeper(const MeshContact& x, const MeshContact& y) {
  return x.contact.depth > y.contact.depth || (x.contact.depth == y.contact.depth && x.triangle < y.triangle);
}

/// Every usable triangle through the pair kernel, in the order contact_all promises.
template <class Shape>
std::vector<MeshContact> brute_force(const Shape& shape, const TriangleMesh& mesh, float margin, ContactTolerancef tol) {
  std::vector<MeshContact> all;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    if (!mesh.is_usable(i)) continue;
    const Contactf c = contact(shape, mesh.triangle(i), margin, tol);
    if (c.touching) all.push_back({static_cast<std::uint32_t>(i), c});
  }
  std::sort(all.begin(), all.end(), deeper);
  return all;
}

template <class Shape>
bool brute_overlap(const Shape& shape, const TriangleMesh& mesh, ContactTolerancef tol) {
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    if (mesh.is_usable(i) && overlap(shape, mesh.triangle(i), tol)) return true;
  }
  return false;
}

/// How many shapes touched something, and how many contacts were compared.
struct Tally {
  long shapes = 0, touching = 0, contacts = 0;
};

template <class Shape>
void expect_matches_brute_force(const Shape& shape, const MeshBvh& bvh, float margin, Tally& tally, const std::string& what) {
  const ContactTolerancef tol{};
  const std::vector<MeshContact> expected = brute_force(shape, bvh.mesh(), margin, tol);
  std::vector<MeshContact> got;
  ASSERT_EQ(contact_all(shape, bvh, got, margin, tol), expected.size()) << what;
  for (std::size_t k = 0; k < expected.size(); ++k) {
    ASSERT_EQ(got[k].triangle, expected[k].triangle) << what << " contact " << k;
    ASSERT_TRUE(same(got[k].contact, expected[k].contact)) << what << " contact " << k;
  }
  const MeshContact deepest = contact(shape, bvh, margin, tol);
  if (expected.empty()) {
    ASSERT_FALSE(deepest.contact.touching) << what;
    ASSERT_EQ(deepest.triangle, kNoPrimitive) << what;
  } else {
    ASSERT_EQ(deepest.triangle, expected[0].triangle) << what;
    ASSERT_TRUE(same(deepest.contact, expected[0].contact)) << what;
  }
  ASSERT_EQ(overlap(shape, bvh, tol), brute_overlap(shape, bvh.mesh(), tol)) << what;
  // The buffer form: the leading part, and the total.
  for (const std::size_t room : {std::size_t(0), std::size_t(1), std::size_t(3), expected.size() + 2}) {
    std::vector<MeshContact> buffer(room);
    std::size_t total = 0;
    const std::size_t written = contact_all(shape, bvh, std::span<MeshContact>(buffer), margin, tol, &total);
    ASSERT_EQ(total, expected.size()) << what;
    ASSERT_EQ(written, std::min(room, expected.size())) << what;
    for (std::size_t k = 0; k < written; ++k) {
      ASSERT_EQ(buffer[k].triangle, expected[k].triangle) << what << " room " << room << " contact " << k;
      ASSERT_TRUE(same(buffer[k].contact, expected[k].contact)) << what;
    }
  }
  ++tally.shapes;
  tally.touching += !expected.empty();
  tally.contacts += static_cast<long>(expected.size());
}

/// Random shapes of size about `size` (0.02 to 2 times it) placed within `size` of the mesh's
/// vertices, so that most touch it somewhere and some miss it.
void expect_random_shapes_match(const MeshBvh& bvh, float size, int count, unsigned seed, Tally& tally) {
  const std::span<const Vec3f> vertices = bvh.mesh().positions();
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(0, 1), s(-1, 1);
  std::uniform_int_distribution<std::size_t> pick(0, vertices.size() - 1);
  auto point = [&] { return vertices[pick(gen)] + Vec3f{s(gen), s(gen), s(gen)} * size; };
  auto scale = [&] { return size * std::exp(std::log(0.02f) + u(gen) * std::log(100.0f)); };
  for (int i = 0; i < count && !::testing::Test::HasFatalFailure(); ++i) {
    const float margin = u(gen) < 0.3f ? scale() * 0.2f : 0.0f;
    const std::string what = "shape " + std::to_string(i) + " (seed " + std::to_string(seed) + ")";
    const Spheref sphere{point(), scale()};
    expect_matches_brute_force(sphere, bvh, margin, tally, "sphere " + what);
    const Vec3f a = point();
    const Capsulef capsule{a, a + Vec3f{s(gen), s(gen), s(gen)} * scale(), scale() * 0.3f};
    expect_matches_brute_force(capsule, bvh, margin, tally, "capsule " + what);
    const Quatf q = Quatf::from_components(s(gen), s(gen), s(gen), s(gen));
    const Obbf box = Obbf::from_quat(point(), Vec3f{scale(), scale(), scale()} * 0.5f, q);
    expect_matches_brute_force(box, bvh, margin, tally, "box " + what);
  }
}

TEST(MeshContact, TriangleSoupMatchesBruteForce) {
  const MeshBvh bvh = MeshBvh::build(test::random_soup(3000, 11, 20.0f)).value();
  Tally tally;
  expect_random_shapes_match(bvh, 3.0f, 100, 21, tally);
  std::printf("soup: %ld shapes, %ld touching, %ld contacts\n", tally.shapes, tally.touching, tally.contacts);
  EXPECT_GT(tally.touching, tally.shapes / 4);
  EXPECT_GT(tally.contacts, 500);
}

TEST(MeshContact, IcosphereMatchesBruteForce) {
  const MeshBvh bvh = MeshBvh::build(test::icosphere(4, 5.0f, {1, -2, 3})).value();
  Tally tally;
  expect_random_shapes_match(bvh, 1.5f, 100, 22, tally);
  std::printf("icosphere: %ld shapes, %ld touching, %ld contacts\n", tally.shapes, tally.touching, tally.contacts);
  EXPECT_GT(tally.touching, tally.shapes / 4);
}

TEST(MeshContact, SphereInsideAClosedMeshTouchesNothingUntilItReachesTheSurface) {
  const MeshBvh bvh = MeshBvh::build(test::icosphere(3, 5.0f)).value();
  std::vector<MeshContact> out;
  EXPECT_EQ(contact_all(Spheref{{0, 0, 0}, 4.0f}, bvh, out), 0u);
  EXPECT_FALSE(overlap(Spheref{{0, 0, 0}, 4.0f}, bvh));
  // Pressed against the inside of the wall at +x: the contacts push it back in.
  ASSERT_GT(contact_all(Spheref{{4.5f, 0, 0}, 1.0f}, bvh, out), 0u);
  for (const MeshContact& c : out) EXPECT_LT(c.contact.normal.x, 0) << "triangle " << c.triangle;
  const MeshContact deepest = contact(Spheref{{4.5f, 0, 0}, 1.0f}, bvh);
  EXPECT_TRUE(deepest);
  EXPECT_EQ(deepest.triangle, out[0].triangle);
}

TEST(MeshContact, DegenerateTrianglesAreNeverReported) {
  // A square of two triangles plus a zero-area one on its diagonal.
  std::vector<Vec3f> p = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5f, 0.5f, 0}};
  auto mesh = std::make_shared<const TriangleMesh>(TriangleMesh::make(p, {{0, 1, 2}, {0, 2, 3}, {0, 4, 2}}).value());
  ASSERT_EQ(mesh->report().degenerate_triangles, 1u);
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  std::vector<MeshContact> out;
  ASSERT_EQ(contact_all(Spheref{{0.5f, 0.5f, 0.1f}, 0.2f}, bvh, out), 2u);
  EXPECT_NE(out[0].triangle, 2u);
  EXPECT_NE(out[1].triangle, 2u);
  EXPECT_EQ(out[0].contact.normal, (Vec3f{0, 0, 1}));
  Tally tally;
  expect_matches_brute_force(Capsulef{{0.5f, 0.5f, -1}, {0.5f, 0.5f, 1}, 0.1f}, bvh, 0.0f, tally, "capsule on the diagonal");
  expect_matches_brute_force(Obbf{{0.5f, 0.5f, 0}, {0.1f, 0.1f, 0.1f}, {}}, bvh, 0.0f, tally, "box on the diagonal");
}

TEST(MeshContact, EmptyMeshAndInvalidShapesTouchNothing) {
  const MeshBvh empty = MeshBvh::build(std::make_shared<const TriangleMesh>(TriangleMesh::make({}, {}).value())).value();
  std::vector<MeshContact> out;
  EXPECT_EQ(contact_all(Spheref{{0, 0, 0}, 1}, empty, out), 0u);
  EXPECT_FALSE(contact(Capsulef{}, empty));
  EXPECT_FALSE(overlap(Obbf{}, empty));
  const MeshBvh bvh = MeshBvh::build(test::icosphere(2)).value();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(overlap(Spheref{{nan, 0, 0}, 1}, bvh));
  EXPECT_FALSE(contact(Spheref{{1, 0, 0}, -1}, bvh));
  EXPECT_EQ(contact_all(Capsulef{{0, 0, 0}, {nan, 0, 0}, 1}, bvh, out), 0u);
  EXPECT_FALSE(contact(Obbf{{1, 0, 0}, {1, nan, 1}, {}}, bvh));
  EXPECT_TRUE(overlap(Spheref{{1, 0, 0}, 0.1f}, bvh));
}

TEST(MeshContact, SizesTenThousandApart) {
  // Grains of radius 1e-4 on an icosphere of radius 10, whose facets are about 3 across (size
  // 1.5, 1.5e4 times the grain's; the tolerance there is 1.5e-5).
  const MeshBvh bvh = MeshBvh::build(test::icosphere(2, 10.0f)).value();
  Tally tally;
  for (const Vec3f direction : {Vec3f{0.3f, 0.4f, 1.0f}, Vec3f{-1, 0.2f, 0.1f}}) {
    const MeshHit hit = bvh.intersect({{0, 0, 0}, direction});
    ASSERT_TRUE(hit);
    for (const float gap : {-5e-5f, 5e-5f, 3e-4f}) {
      const Spheref grain{hit.point + hit.normal * (1e-4f + gap), 1e-4f};
      EXPECT_EQ(overlap(grain, bvh), gap < 0) << gap;
      expect_matches_brute_force(grain, bvh, 0.0f, tally, "grain");
      expect_matches_brute_force(grain, bvh, 1e-3f, tally, "grain with margin");
      const MeshContact c = contact(grain, bvh, 1e-3f);
      ASSERT_TRUE(c);
      EXPECT_EQ(c.triangle, hit.triangle);
      EXPECT_NEAR(c.contact.depth, -gap, 5e-6f) << gap;
    }
  }
}

std::shared_ptr<const TriangleMesh> load(const std::string& path) {
  if (!std::filesystem::exists(path)) return nullptr;
  Result<TriangleMesh> mesh = io::load_mesh(path);
  EXPECT_TRUE(mesh.ok()) << mesh.status().message();
  return mesh.ok() ? std::make_shared<const TriangleMesh>(std::move(mesh).value()) : nullptr;
}

// Found by fuzz_capi: one vertex at 1e30 makes the mesh's size overflow, the query box grows to
// infinity, and the walk must still skip the unused slots of wide nodes (their empty boxes
// overlap an infinite box).
// A mesh as wide as the working range (a 1e30-wide one, refused now, once made the query box
// overflow to infinity, and the empty boxes of unused node slots then overlapped it).
TEST(MeshContact, MeshAsWideAsTheWorkingRangeSkipsUnusedSlots) {
  const float far = kMaxCoordinate;
  std::vector<Vec3f> p = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {far, 0, 0}, {far, 1, 0}, {far, 0, 1}};
  std::vector<TriangleMesh::Indices> f = {{0, 1, 2}, {3, 4, 5}};
  const MeshBvh bvh = MeshBvh::build(std::make_shared<const TriangleMesh>(TriangleMesh::make(p, f).value())).value();
  EXPECT_TRUE(overlap(Spheref{{0.2f, 0.2f, 0.1f}, 0.2f}, bvh));
  EXPECT_TRUE(overlap(Capsulef{{0.2f, 0.2f, -1}, {0.2f, 0.2f, 1}, 0.1f}, bvh));
  EXPECT_FALSE(overlap(Spheref{{5, 5, 5}, 0.5f}, bvh));
  const MeshContact c = contact(Spheref{{0.2f, 0.2f, 0.1f}, 0.2f}, bvh);
  ASSERT_TRUE(c);
  EXPECT_EQ(c.triangle, 0u);
  EXPECT_NEAR(c.contact.depth, 0.1f, 1e-6f);
}

class RealMeshContact : public ::testing::TestWithParam<std::string> {};

TEST_P(RealMeshContact, MatchesBruteForce) {
  const auto mesh = load(std::string(HITSCAN_CGAL_MESH_DIR) + "/" + GetParam());
  ASSERT_NE(mesh, nullptr) << GetParam() << " is missing: scripts/deps.sh test installs it";
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  Tally tally;
  expect_random_shapes_match(bvh, 0.02f * length(mesh->bounds().extent()), GetParam() == "bunny00.off" ? 12 : 40, 23, tally);
  std::printf("%s: %ld shapes, %ld touching, %ld contacts\n", GetParam().c_str(), tally.shapes, tally.touching,
              tally.contacts);
  EXPECT_GT(tally.touching, tally.shapes / 4);
}

INSTANTIATE_TEST_SUITE_P(Debian, RealMeshContact, ::testing::Values("bunny00.off", "elephant.off"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return std::filesystem::path(info.param).stem().string();
                         });

}  // namespace
}  // namespace hitscan
