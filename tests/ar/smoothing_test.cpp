// The temporal filters on synthetic signals: noise on a constant, a step and a ramp, each against
// the figures the header documents (derived independently here, in double).

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "hitscan/ar/smoothing.hpp"

namespace hitscan {
namespace {

constexpr double kDt = 1.0 / 60.0;

/// Standard deviation of the x coordinate of `values`, in double.
double std_dev_x(const std::vector<Vec3f>& values) {
  double mean = 0;
  for (const Vec3f& v : values) mean += v.x;
  mean /= double(values.size());
  double sum = 0;
  for (const Vec3f& v : values) sum += (v.x - mean) * (v.x - mean);
  return std::sqrt(sum / double(values.size() - 1));
}

/// Output noise over input noise for a constant with Gaussian noise of 1 cm on every axis.
template <class Filter>
double noise_ratio(Filter filter, unsigned seed, int samples = 20000, int warm_up = 500) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> noise(0.0f, 0.01f);
  std::vector<Vec3f> in, out;
  for (int i = 0; i < samples; ++i) {
    const Vec3f x = Vec3f{1, 2, 3} + Vec3f{noise(gen), noise(gen), noise(gen)};
    const Vec3f y = filter.update(x, i * kDt);
    if (i >= warm_up) in.push_back(x), out.push_back(y);
  }
  return std_dev_x(out) / std_dev_x(in);
}

/// Samples at the new value of a unit step (after `settle` samples at 0) until the output reaches 0.9.
template <class Filter>
int step_samples_to_90_percent(Filter& filter, int settle = 0, double dt = kDt) {
  int i = 0;
  for (; i < settle; ++i) filter.update({}, i * dt);
  for (int n = 0; n < 100000; ++n, ++i) {
    if (filter.update({1, 0, 0}, i * dt).x >= 0.9f) return n + 1;
  }
  return -1;
}

double analytic_samples_to_90_percent(double alpha) { return std::ceil(std::log(0.1) / std::log(1.0 - alpha)); }
double analytic_noise_ratio(double alpha) { return std::sqrt(alpha / (2.0 - alpha)); }
double one_euro_alpha(double cutoff, double dt) {
  const double tau = 1.0 / (2.0 * 3.14159265358979323846 * cutoff);
  return 1.0 / (1.0 + tau / dt);
}

TEST(ExponentialFilter, NoiseOnAConstantShrinksBySqrtAlphaOverTwoMinusAlpha) {
  for (const float alpha : {0.05f, 0.2f, 0.5f}) {
    const double ratio = noise_ratio(ExponentialFilter::with_alpha(alpha), 1);
    EXPECT_NEAR(ratio, analytic_noise_ratio(alpha), 0.05 * analytic_noise_ratio(alpha)) << "alpha " << alpha;
  }
}

TEST(ExponentialFilter, AStepReaches90PercentAfterTheDocumentedSampleCount) {
  for (const float alpha : {0.05f, 0.2f, 0.5f}) {
    ExponentialFilter filter = ExponentialFilter::with_alpha(alpha);
    EXPECT_EQ(step_samples_to_90_percent(filter, 10), analytic_samples_to_90_percent(alpha)) << "alpha " << alpha;
  }
  ExponentialFilter pass = ExponentialFilter::with_alpha(1.0f);
  EXPECT_EQ(step_samples_to_90_percent(pass, 10), 1);
}

TEST(ExponentialFilter, ATimeConstantGivesTheSameLagInSecondsAtAnyFrameRate) {
  const double tau = 0.1, expected = std::log(10.0) * tau;
  for (const double rate : {30.0, 60.0, 120.0}) {
    ExponentialFilter filter = ExponentialFilter::with_time_constant(float(tau));
    const double seconds = step_samples_to_90_percent(filter, 5, 1.0 / rate) / rate;
    EXPECT_GE(seconds, expected - 1e-6) << rate << " Hz";
    EXPECT_LT(seconds, expected + 1.0 / rate) << rate << " Hz";
  }
}

TEST(OneEuroFilter, BetaZeroIsTheExponentialFilterAtMinCutoff) {
  OneEuroFilter one_euro({.min_cutoff = 2.0f, .beta = 0.0f, .d_cutoff = 1.0f});
  ExponentialFilter exponential = ExponentialFilter::with_alpha(float(one_euro_alpha(2.0, kDt)));
  std::mt19937 gen(2);
  std::normal_distribution<float> noise(0.0f, 0.01f);
  for (int i = 0; i < 2000; ++i) {
    const Vec3f x{noise(gen), 1 + noise(gen), (i > 1000 ? 1.0f : 0.0f) + noise(gen)};
    const Vec3f a = one_euro.update(x, i * kDt), b = exponential.update(x, i * kDt);
    ASSERT_NEAR(a.x, b.x, 1e-5f);
    ASSERT_NEAR(a.y, b.y, 1e-5f);
    ASSERT_NEAR(a.z, b.z, 1e-5f);
  }
}

TEST(OneEuroFilter, NoiseAndStepLagAreBoundedByTheExponentialAtMinCutoff) {
  const OneEuroSettings settings{.min_cutoff = 1.0f, .beta = 5.0f, .d_cutoff = 1.0f};
  const double alpha = one_euro_alpha(settings.min_cutoff, kDt);
  const double ratio = noise_ratio(OneEuroFilter(settings), 3);
  EXPECT_GE(ratio, 0.98 * analytic_noise_ratio(alpha));
  EXPECT_LT(ratio, 0.5);  // still smooths: the speed estimate's own low-pass keeps noise from opening it
  OneEuroFilter filter(settings);
  const int lag = step_samples_to_90_percent(filter, 10);
  EXPECT_LE(lag, analytic_samples_to_90_percent(alpha));
  EXPECT_LT(lag, analytic_samples_to_90_percent(alpha) / 2);  // beta opens the cutoff on the jump
}

TEST(OneEuroFilter, OnARampTheLagIsSpeedOverTwoPiCutoffSoFastMotionLagsRelativelyLess) {
  const OneEuroSettings settings{.min_cutoff = 1.0f, .beta = 2.0f, .d_cutoff = 1.0f};
  double lag_per_speed[2] = {};
  int k = 0;
  for (const double speed : {0.05, 2.0}) {  // metres per second
    OneEuroFilter filter(settings);
    double lag = 0;
    for (int i = 0; i < 1200; ++i) {
      const double x = speed * i * kDt;
      lag = x - filter.update({float(x), 0, 0}, i * kDt).x;
    }
    const double expected = speed / (2.0 * 3.14159265358979323846 * (settings.min_cutoff + settings.beta * speed));
    EXPECT_NEAR(lag, expected, 0.02 * expected + 1e-5) << speed << " m/s";
    lag_per_speed[k++] = lag / speed;
  }
  EXPECT_LT(lag_per_speed[1], 0.5 * lag_per_speed[0]);
}

TEST(KalmanFilter, SettlesAtTheAnalyticGainAndFiltersLikeTheExponentialWithIt) {
  const KalmanSettings settings{.process_noise = 1e-3f, .measurement_noise = 1e-4f};
  KalmanFilter filter(settings);
  for (int i = 0; i < 500; ++i) filter.update({}, i * kDt);
  // The settled variance P after an update predicts P- = P + q dt for the next, whose gain is
  // P- / (P- + r): that must be the analytic fixed point.
  const double predicted = double(filter.variance()) + 1e-3 * kDt;
  const double gain = predicted / (predicted + 1e-4);
  EXPECT_NEAR(filter.steady_gain(kDt), gain, 1e-5);
  const double ratio = noise_ratio(KalmanFilter(settings), 4);
  EXPECT_NEAR(ratio, analytic_noise_ratio(gain), 0.05 * analytic_noise_ratio(gain));
  KalmanFilter stepped(settings);
  EXPECT_NEAR(step_samples_to_90_percent(stepped, 500), analytic_samples_to_90_percent(gain), 1.0);
}

template <class Filter>
void check_common_rules(Filter filter) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(filter.has_value());
  EXPECT_EQ(filter.update({nan, 0, 0}, 0.0), Vec3f{});  // nothing accepted yet
  EXPECT_EQ(filter.update({1, 2, 3}, 0.0), (Vec3f{1, 2, 3}));  // the first sample passes through
  const Vec3f after = filter.update({2, 2, 3}, kDt);
  EXPECT_GT(after.x, 1.0f);
  EXPECT_LT(after.x, 2.0f);
  EXPECT_EQ(filter.update({nan, 9, 9}, 2 * kDt), after);                        // NaN: ignored
  EXPECT_EQ(filter.update({9, 9, std::numeric_limits<float>::infinity()}, 2 * kDt), after);
  EXPECT_EQ(filter.update({9, 9, 9}, kDt), after);                              // time did not advance
  EXPECT_EQ(filter.update({9, 9, 9}, std::numeric_limits<double>::quiet_NaN()), after);
  EXPECT_EQ(filter.value(), after);
  filter.reset();
  EXPECT_FALSE(filter.has_value());
  EXPECT_EQ(filter.update({5, 6, 7}, 0.0), (Vec3f{5, 6, 7}));  // passes through again, time restarts
}

TEST(TemporalFilters, FirstSamplePassesThroughAndNaNOrStaleSamplesKeepTheState) {
  check_common_rules(ExponentialFilter::with_alpha(0.3f));
  check_common_rules(ExponentialFilter::with_time_constant(0.05f));
  check_common_rules(OneEuroFilter({.min_cutoff = 1.0f, .beta = 1.0f, .d_cutoff = 1.0f}));
  check_common_rules(KalmanFilter(KalmanSettings{}));
}

TEST(NormalFilter, NoisyNormalsComeOutUnitAndSteadierAndAFlipPassesThrough) {
  NormalFilter<ExponentialFilter> filter(ExponentialFilter::with_alpha(0.1f));
  std::mt19937 gen(5);
  std::normal_distribution<float> noise(0.0f, 0.05f);
  double raw_angle = 0, filtered_angle = 0;
  for (int i = 0; i < 3000; ++i) {
    const Vec3f n = normalize(Vec3f{noise(gen), 1, noise(gen)});
    const Vec3f out = filter.update(n * 3.0f, i * kDt);  // any length is taken
    ASSERT_NEAR(length(out), 1.0f, 1e-5f);
    if (i < 100) continue;
    raw_angle += std::acos(std::min(1.0f, n.y));
    filtered_angle += std::acos(std::min(1.0f, out.y));
  }
  EXPECT_LT(filtered_angle, 0.4 * raw_angle);
  EXPECT_EQ(filter.update({}, 3000 * kDt), filter.value());  // a zero vector is ignored
  // The surface turns over: the output jumps at once rather than passing through zero.
  const Vec3f flipped = filter.update({0.0f, -1.0f, 0.0f}, 3001 * kDt);
  EXPECT_EQ(flipped, (Vec3f{0, -1, 0}));
  // Less than 90 degrees is smoothed, not a flip.
  const Vec3f tilted = filter.update({1.0f, -1.0f, 0.0f}, 3002 * kDt);
  EXPECT_GT(tilted.x, 0.0f);
  EXPECT_LT(tilted.x, 0.2f);
}

template <class F>
void check_flip(F filter) {
  NormalFilter<F> normals(std::move(filter));
  EXPECT_EQ(normals.update({0, 2, 0}, 0.0), (Vec3f{0, 1, 0}));
  const Vec3f tilted = normals.update({0.2f, 1, 0}, kDt);
  EXPECT_GT(tilted.x, 0.0f);
  EXPECT_NEAR(length(tilted), 1.0f, 1e-6f);
  EXPECT_EQ(normals.update({0, -1, 0}, 2 * kDt), (Vec3f{0, -1, 0}));
  normals.reset();
  EXPECT_FALSE(normals.has_value());
}

TEST(NormalFilter, EveryFilterRenormalisesAndPassesAFlipThrough) {
  check_flip(OneEuroFilter({.min_cutoff = 1.0f, .beta = 0.5f, .d_cutoff = 1.0f}));
  check_flip(KalmanFilter(KalmanSettings{}));
  check_flip(ExponentialFilter::with_time_constant(0.1f));
}

}  // namespace
}  // namespace hitscan
