// Jitter and lag of each temporal filter on a reconstruction whose vertices get fresh noise every
// frame: a chunk re-sent every frame (ReconstructionChunks, refit), a fixed vertical ray cast into
// the scene, its hit filtered. Prints the figures and checks them against the filters' documented
// noise and step figures.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "hitscan/ar/chunks.hpp"
#include "hitscan/ar/smoothing.hpp"

namespace hitscan {
namespace {

constexpr double kDt = 1.0 / 60.0;
constexpr float kVertexNoise = 0.005f;  // 5 mm, a typical depth-sensor reconstruction
constexpr float kStep = 0.10f;          // the floor really rises 10 cm (a box pushed under the point)
constexpr int kRestFrames = 1000, kWarmUp = 200, kStepFrames = 120;

struct Figures {
  double jitter = 0;  // standard deviation of the height across frames at rest, metres
  int lag = -1;       // frames after the step until the height is within 10% of it
};

/// Runs the same seeded sequence through `filter` (or through none, with a null one).
template <class Filter>
Figures measure(Filter* filter) {
  std::mt19937 gen(31);
  std::normal_distribution<float> noise(0.0f, kVertexNoise);
  const int n = 8;  // 8 x 8 quads over a metre
  std::vector<Vec3f> positions;
  std::vector<TriangleMesh::Indices> triangles;
  for (int a = 0; a <= n; ++a) {
    for (int b = 0; b <= n; ++b) positions.push_back({float(a) / n, 0.0f, float(b) / n});
  }
  for (std::uint32_t a = 0; a < n; ++a) {
    for (std::uint32_t b = 0; b < n; ++b) {
      const std::uint32_t i = a * (n + 1) + b;
      triangles.push_back({i, i + 1, i + n + 1});
      triangles.push_back({i + n + 1, i + 1, i + n + 2});
    }
  }
  Scene scene;
  ReconstructionChunks chunks(scene);
  std::vector<double> rest;
  Figures figures;
  for (int frame = 0; frame < kRestFrames + kStepFrames; ++frame) {
    const float floor = frame < kRestFrames ? 0.0f : kStep;
    std::vector<Vec3f> noisy = positions;
    for (Vec3f& v : noisy) v.y = floor + noise(gen);
    EXPECT_TRUE(chunks.update_chunk(1, noisy, triangles).ok());
    scene.commit();
    const QueryHit hit = scene.raycast({{0.43f, 1.0f, 0.57f}, {0, -1, 0}});
    EXPECT_TRUE(hit.hit);
    const float height = filter ? filter->update(hit.point, frame * kDt).y : hit.point.y;
    if (frame >= kWarmUp && frame < kRestFrames) rest.push_back(height);
    if (frame >= kRestFrames && figures.lag < 0 && height >= 0.9f * kStep) figures.lag = frame - kRestFrames + 1;
  }
  double mean = 0, sum = 0;
  for (double h : rest) mean += h;
  mean /= double(rest.size());
  for (double h : rest) sum += (h - mean) * (h - mean);
  figures.jitter = std::sqrt(sum / double(rest.size() - 1));
  return figures;
}

double exponential_ratio(double alpha) { return std::sqrt(alpha / (2.0 - alpha)); }
double exponential_lag(double alpha) { return std::ceil(std::log(0.1) / std::log(1.0 - alpha)); }

TEST(FilterJitter, OnANoisyRefitMeshEachFilterCutsJitterAsDocumentedAndLagsAsBounded) {
  const Figures raw = measure<ExponentialFilter>(nullptr);
  const float alpha = 0.2f;
  ExponentialFilter exponential = ExponentialFilter::with_alpha(alpha);
  const Figures exp_figures = measure(&exponential);
  const OneEuroSettings one_euro_settings{.min_cutoff = 1.0f, .beta = 4.0f, .d_cutoff = 1.0f};
  OneEuroFilter one_euro(one_euro_settings);
  const Figures euro_figures = measure(&one_euro);
  const KalmanSettings kalman_settings{.process_noise = 1e-4f, .measurement_noise = kVertexNoise * kVertexNoise};
  KalmanFilter kalman(kalman_settings);
  const Figures kalman_figures = measure(&kalman);
  const double gain = KalmanFilter(kalman_settings).steady_gain(kDt);
  const double euro_alpha = 1.0 / (1.0 + 1.0 / (2.0 * 3.14159265358979323846 * one_euro_settings.min_cutoff * kDt));

  std::printf("vertex noise %.1f mm at 60 Hz, step %.0f mm\n", kVertexNoise * 1e3, kStep * 1e3);
  std::printf("  %-34s jitter %6.3f mm  lag %3d frames\n", "raw", raw.jitter * 1e3, raw.lag);
  std::printf("  %-34s jitter %6.3f mm  lag %3d frames\n", "exponential alpha 0.2", exp_figures.jitter * 1e3,
              exp_figures.lag);
  std::printf("  %-34s jitter %6.3f mm  lag %3d frames\n", "one euro 1 Hz, beta 4, d 1 Hz", euro_figures.jitter * 1e3,
              euro_figures.lag);
  std::printf("  %-34s jitter %6.3f mm  lag %3d frames (steady gain %.3f)\n", "kalman q 1e-4, r (5 mm)^2",
              kalman_figures.jitter * 1e3, kalman_figures.lag, gain);

  // The ray's height is a barycentric mix of three vertices: noise between s/sqrt(3) and s.
  EXPECT_GT(raw.jitter, kVertexNoise / std::sqrt(3.0));
  EXPECT_LT(raw.jitter, kVertexNoise);
  EXPECT_EQ(raw.lag, 1);
  // Each filter against its documented figures (noise within 15%: 800 correlated frames; lag
  // within 2 frames: the noise moves the crossing).
  EXPECT_NEAR(exp_figures.jitter / raw.jitter, exponential_ratio(alpha), 0.15 * exponential_ratio(alpha));
  EXPECT_NEAR(exp_figures.lag, exponential_lag(alpha), 2.0);
  EXPECT_NEAR(kalman_figures.jitter / raw.jitter, exponential_ratio(gain), 0.15 * exponential_ratio(gain));
  EXPECT_NEAR(kalman_figures.lag, exponential_lag(gain), 2.0);
  EXPECT_GE(euro_figures.jitter / raw.jitter, 0.85 * exponential_ratio(euro_alpha));
  EXPECT_LE(euro_figures.lag, exponential_lag(euro_alpha));
  // The ordering the One Euro filter exists for: steadier at rest than the exponential filter,
  // and still quicker after a real step than its own rest cutoff would allow.
  EXPECT_LT(euro_figures.jitter, exp_figures.jitter);
  EXPECT_LT(euro_figures.lag, exponential_lag(euro_alpha) - 5);
  EXPECT_LT(exp_figures.jitter, raw.jitter);
  EXPECT_LT(kalman_figures.jitter, raw.jitter);
}

}  // namespace
}  // namespace hitscan
