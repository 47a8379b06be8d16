#pragma once
// Mean, spread and range of a quantity over repetitions, kept in one pass (Welford) so a
// phase's statistics never need its repetitions stored.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace p3s::signature {

class RunningStats {
 public:
  void add(double x) {
    min_ = std::min(min_, x);
    max_ = std::max(max_, x);
    ++count_;
    const double delta = x - mean_;
    mean_ += delta / static_cast<double>(count_);
    m2_ += delta * (x - mean_);
  }

  // As if every value added to `other` had been added here (Chan et al.'s combination).
  void merge(const RunningStats& other) {
    if (other.count_ == 0) return;
    min_ = std::min(min_, other.min_);
    max_ = std::max(max_, other.max_);
    const double n = static_cast<double>(count_ + other.count_);
    const double delta = other.mean_ - mean_;
    mean_ += delta * static_cast<double>(other.count_) / n;
    m2_ += other.m2_ +
           delta * delta * static_cast<double>(count_) * static_cast<double>(other.count_) / n;
    count_ += other.count_;
  }

  std::int64_t count() const { return count_; }
  double mean() const { return mean_; }
  // The smallest and largest value added (0 when none was).
  double min() const { return count_ > 0 ? min_ : 0.0; }
  double max() const { return count_ > 0 ? max_ : 0.0; }
  // Population standard deviation: the spread of the repetitions themselves.
  double stddev() const { return count_ > 0 ? std::sqrt(m2_ / static_cast<double>(count_)) : 0.0; }

  // For readers that restore statistics written out earlier; a range not written is taken as
  // the mean alone.
  static RunningStats from(std::int64_t count, double mean, double stddev) {
    return from(count, mean, stddev, mean, mean);
  }
  static RunningStats from(std::int64_t count, double mean, double stddev, double min, double max) {
    RunningStats s;
    s.count_ = count;
    s.mean_ = mean;
    s.m2_ = stddev * stddev * static_cast<double>(count);
    s.min_ = min;
    s.max_ = max;
    return s;
  }

 private:
  std::int64_t count_ = 0;
  double mean_ = 0;
  double m2_ = 0;
  double min_ = std::numeric_limits<double>::infinity();
  double max_ = -std::numeric_limits<double>::infinity();
};

}  // namespace p3s::signature
