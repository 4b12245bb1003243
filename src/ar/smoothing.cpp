#include "hitscan/ar/smoothing.hpp"

#include <cmath>

#include "hitscan/assert.hpp"

namespace hitscan {
namespace {

/// Whether a sample is taken: finite, and later than the last accepted one.
bool accepts(Vec3f sample, double time, bool has_value, double last_time) {
  return is_finite(sample) && std::isfinite(time) && (!has_value || time > last_time);
}

/// The weight of an exponential low-pass with cutoff fc (Hz) sampled dt seconds apart: the
/// discretised RC filter, tau = 1 / (2 pi fc), alpha = 1 / (1 + tau / dt) (Casiez et al. 2012, eq. 3).
double cutoff_alpha(double cutoff, double dt) {
  const double r = 2.0 * kPi<double> * cutoff * dt;
  return r / (1.0 + r);
}

Vec3f blend(Vec3f from, Vec3f to, double weight) {
  const auto w = static_cast<float>(weight);
  return from + (to - from) * w;
}

}  // namespace

ExponentialFilter ExponentialFilter::with_alpha(float alpha) {
  HITSCAN_ASSERT(alpha > 0.0f && alpha <= 1.0f);
  return ExponentialFilter(alpha, 0.0f);
}

ExponentialFilter ExponentialFilter::with_time_constant(float tau_seconds) {
  HITSCAN_ASSERT(tau_seconds > 0.0f && std::isfinite(tau_seconds));
  return ExponentialFilter(1.0f, tau_seconds);
}

Vec3f ExponentialFilter::update(Vec3f sample, double time) {
  if (!accepts(sample, time, has_value_, time_)) return value_;
  if (!has_value_) {
    has_value_ = true, value_ = sample, time_ = time;
    return value_;
  }
  const double weight = tau_ > 0.0f ? 1.0 - std::exp(-(time - time_) / double(tau_)) : double(alpha_);
  value_ = blend(value_, sample, weight);
  time_ = time;
  return value_;
}

OneEuroFilter::OneEuroFilter(OneEuroSettings settings) : settings_(settings), cutoff_(settings.min_cutoff) {
  HITSCAN_ASSERT(settings.min_cutoff > 0.0f && std::isfinite(settings.min_cutoff));
  HITSCAN_ASSERT(settings.beta >= 0.0f && std::isfinite(settings.beta));
  HITSCAN_ASSERT(settings.d_cutoff > 0.0f && std::isfinite(settings.d_cutoff));
}

Vec3f OneEuroFilter::update(Vec3f sample, double time) {
  if (!accepts(sample, time, has_value_, time_)) return value_;
  if (!has_value_) {
    has_value_ = true, value_ = sample, speed_ = {}, sample_ = sample, time_ = time;
    cutoff_ = settings_.min_cutoff;
    return value_;
  }
  const double dt = time - time_;
  // The speed is smoothed on its own so that noise alone does not open the cutoff.
  const Vec3f raw_speed = (sample - sample_) * static_cast<float>(1.0 / dt);
  speed_ = blend(speed_, raw_speed, cutoff_alpha(settings_.d_cutoff, dt));
  cutoff_ = settings_.min_cutoff + settings_.beta * length(speed_);
  value_ = blend(value_, sample, cutoff_alpha(cutoff_, dt));
  sample_ = sample, time_ = time;
  return value_;
}

KalmanFilter::KalmanFilter(KalmanSettings settings) : settings_(settings) {
  HITSCAN_ASSERT(settings.process_noise >= 0.0f && std::isfinite(settings.process_noise));
  HITSCAN_ASSERT(settings.measurement_noise > 0.0f && std::isfinite(settings.measurement_noise));
}

Vec3f KalmanFilter::update(Vec3f sample, double time) {
  if (!accepts(sample, time, has_value_, time_)) return value_;
  const double r = settings_.measurement_noise;
  if (!has_value_) {
    has_value_ = true, value_ = sample, variance_ = static_cast<float>(r), time_ = time;
    return value_;
  }
  const double predicted = double(variance_) + double(settings_.process_noise) * (time - time_);
  const double gain = predicted / (predicted + r);
  value_ = blend(value_, sample, gain);
  variance_ = static_cast<float>((1.0 - gain) * predicted);
  time_ = time;
  return value_;
}

float KalmanFilter::steady_gain(double dt) const {
  // The fixed point of P- = r P- / (P- + r) + q dt, the predicted variance after an update.
  const double q = double(settings_.process_noise) * dt, r = settings_.measurement_noise;
  const double predicted = (q + std::sqrt(q * q + 4.0 * q * r)) / 2.0;
  return static_cast<float>(predicted / (predicted + r));
}

}  // namespace hitscan
