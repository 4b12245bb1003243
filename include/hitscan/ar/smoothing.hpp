#pragma once
/// Temporal filters for positions and unit normals that jitter from frame to frame (reconstruction
/// noise moves draped points and placed anchors a few millimetres every frame): an exponential
/// low-pass, the One Euro filter and a constant-position Kalman filter.
///
/// Common behaviour. Each filter takes one sample per call with its timestamp in seconds and
/// returns the filtered value. The first sample (after construction or reset()) passes through
/// unchanged. A sample with a NaN or infinite coordinate, or whose timestamp is not finite or not
/// later than the previous accepted sample's, is ignored: the filter keeps its state and returns
/// its last output (the zero vector before any sample was accepted). The three axes are filtered
/// independently, with the same parameters.
///
/// Figures for white measurement noise of standard deviation s on a constant, and for a step of
/// height h, at a fixed interval dt (derived in the comments of each filter; the tests check them):
/// | filter | steady-state output noise | samples to reach 90% of a step |
/// | exponential, weight a | s sqrt(a / (2 - a)) | ceil(ln 0.1 / ln(1 - a)) |
/// | Kalman, q, r | the exponential's with a = its steady gain K | the same with a = K (after settling) |
/// | One Euro | at least the exponential's at min_cutoff | at most the exponential's at min_cutoff |
///
/// Normals. NormalFilter<F> filters a unit vector with F component-wise and renormalises.

#include <utility>

#include "hitscan/math/vec3.hpp"

namespace hitscan {

/// Exponential moving average y += a (x - y): the simplest low-pass. A step reaches
/// 1 - (1 - a)^n of its height after n samples; white noise of variance s^2 leaves
/// a^2 s^2 / (1 - (1 - a)^2) = s^2 a / (2 - a) in the output.
class ExponentialFilter {
 public:
  /// A fixed weight per sample, 0 < alpha <= 1 (1 passes samples through); timestamps only order
  /// the samples. A weight outside (0, 1] is a contract violation.
  static ExponentialFilter with_alpha(float alpha);
  /// A time constant in seconds (> 0): each sample's weight is 1 - exp(-dt / tau) for the time dt
  /// since the previous one, so the response does not depend on the frame rate; a step reaches
  /// 90% after ln(10) tau = 2.30 tau seconds. A non-positive or non-finite tau is a contract
  /// violation.
  static ExponentialFilter with_time_constant(float tau_seconds);

  /// Filters one sample taken at `time` seconds; see the file comment for ignored samples.
  Vec3f update(Vec3f sample, double time);
  /// The last output (zero before the first sample).
  Vec3f value() const { return value_; }
  bool has_value() const { return has_value_; }
  /// Forgets every sample: the next one passes through.
  void reset() { has_value_ = false, value_ = {}; }

 private:
  ExponentialFilter(float alpha, float tau) : alpha_(alpha), tau_(tau) {}
  float alpha_;  // fixed weight, used when tau_ == 0
  float tau_;
  bool has_value_ = false;
  Vec3f value_{};
  double time_ = 0;
};

/// The One Euro filter (G. Casiez, N. Roussel, D. Vogel, "1 € Filter: A Simple Speed-based
/// Low-pass Filter for Noisy Input in Interactive Systems", CHI 2012): an exponential low-pass
/// whose cutoff frequency rises with the signal's speed, so that a still signal is smoothed
/// strongly and a moving one follows with little lag. Per sample, with dt the time since the
/// previous one and alpha(fc) = 1 / (1 + 1 / (2 pi fc dt)):
///   speed estimate  v = low-pass of (x - x_prev) / dt with cutoff d_cutoff (x_prev the previous
///                   accepted sample, as in the authors' reference implementation);
///   cutoff          fc = min_cutoff + beta |v|  (|v| the length of the 3D velocity);
///   output          y = y_prev + alpha(fc) (x - y_prev).
/// Since fc >= min_cutoff, noise and step lag are bounded by the exponential filter with weight
/// alpha(min_cutoff) (beta = 0 is exactly that filter). On a ramp of speed v the output settles
/// at a lag of v / (2 pi (min_cutoff + beta v)) behind it: the faster, the smaller the lag
/// relative to the speed. Tuning (from the paper): set beta = 0 and lower min_cutoff until a
/// still signal stops jittering, then raise beta until fast motion stops lagging.
struct OneEuroSettings {
  /// Hz, > 0: the cutoff at rest. Lower smooths more.
  float min_cutoff = 1.0f;
  /// s/m (per unit of the signal), >= 0: how fast the cutoff rises with speed.
  float beta = 0.0f;
  /// Hz, > 0: cutoff of the speed estimate's own low-pass.
  float d_cutoff = 1.0f;
};

class OneEuroFilter {
 public:
  /// Settings outside their documented domain are a contract violation.
  explicit OneEuroFilter(OneEuroSettings settings = {});

  Vec3f update(Vec3f sample, double time);
  Vec3f value() const { return value_; }
  bool has_value() const { return has_value_; }
  void reset() { has_value_ = false, value_ = {}, speed_ = {}, sample_ = {}; }
  /// The cutoff frequency (Hz) used for the last accepted sample; min_cutoff before any.
  float last_cutoff() const { return cutoff_; }

 private:
  OneEuroSettings settings_;
  bool has_value_ = false;
  Vec3f value_{};
  Vec3f speed_{};
  Vec3f sample_{};  // the previous accepted sample
  double time_ = 0;
  float cutoff_;
};

/// A Kalman filter for a quantity believed constant up to a random walk (the constant-position
/// model), each axis on its own: the state variance grows by q dt between samples (predict), and a
/// measurement of variance r pulls the estimate by the gain K = P / (P + r) (update). The first
/// sample sets the estimate with variance r. At a fixed dt the gain settles at
///   K = P / (P + r),  P = (q dt + sqrt((q dt)^2 + 4 q dt r)) / 2,
/// after which the filter is the exponential filter with weight K (same noise and lag figures).
struct KalmanSettings {
  /// Process noise, units^2 per second, >= 0: how fast the true value is expected to wander.
  float process_noise = 1e-3f;
  /// Measurement noise variance, units^2, > 0: the reconstruction noise squared.
  float measurement_noise = 1e-4f;
};

class KalmanFilter {
 public:
  /// Settings outside their documented domain are a contract violation.
  explicit KalmanFilter(KalmanSettings settings = {});

  Vec3f update(Vec3f sample, double time);
  Vec3f value() const { return value_; }
  bool has_value() const { return has_value_; }
  void reset() { has_value_ = false, value_ = {}; }
  /// The estimate's variance per axis after the last update (r after the first sample).
  float variance() const { return variance_; }
  /// The gain the filter settles at for samples dt seconds apart (see the class comment).
  float steady_gain(double dt) const;

 private:
  KalmanSettings settings_;
  bool has_value_ = false;
  Vec3f value_{};
  float variance_ = 0;
  double time_ = 0;
};

/// A unit normal filtered by F (any of the filters above) component-wise, then renormalised.
/// Ignored as a sample, in addition to F's rules: a zero or non-finite vector. Samples need not be
/// unit length (they are normalised first). A sample more than 90 degrees from the current output
/// is a flip (the surface turned over, or the point moved to another surface), not noise:
/// averaging across it would pass through a zero vector, so the filter restarts from the sample,
/// which passes through.
template <class F>
class NormalFilter {
 public:
  explicit NormalFilter(F filter) : filter_(std::move(filter)) {}

  /// Filters one normal taken at `time` seconds; returns the unit output (zero before any sample).
  Vec3f update(Vec3f normal, double time) {
    const Vec3f n = normalize(normal);
    if (n == Vec3f{}) return value_;
    if (filter_.has_value() && dot(n, value_) < 0.0f) filter_.reset();
    const Vec3f filtered = normalize(filter_.update(n, time));
    // Component-wise averaging of unit vectors less than 90 degrees apart never gives zero.
    if (filtered != Vec3f{}) value_ = filtered;
    return value_;
  }
  Vec3f value() const { return value_; }
  bool has_value() const { return filter_.has_value(); }
  void reset() { filter_.reset(), value_ = {}; }

 private:
  F filter_;
  Vec3f value_{};
};

}  // namespace hitscan
