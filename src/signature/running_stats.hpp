#pragma once
// Mean and spread of a quantity over repetitions, kept in one pass (Welford) so a phase's
// statistics never need its repetitions stored.
#include <cmath>
#include <cstdint>

namespace p3s::signature {

class RunningStats {
 public:
  void add(double x) {
    ++count_;
    const double delta = x - mean_;
    mean_ += delta / static_cast<double>(count_);
    m2_ += delta * (x - mean_);
  }

  // As if every value added to `other` had been added here (Chan et al.'s combination).
  void merge(const RunningStats& other) {
    if (other.count_ == 0) return;
    const double n = static_cast<double>(count_ + other.count_);
    const double delta = other.mean_ - mean_;
    mean_ += delta * static_cast<double>(other.count_) / n;
    m2_ += other.m2_ +
           delta * delta * static_cast<double>(count_) * static_cast<double>(other.count_) / n;
    count_ += other.count_;
  }

  std::int64_t count() const { return count_; }
  double mean() const { return mean_; }
  // Population standard deviation: the spread of the repetitions themselves.
  double stddev() const { return count_ > 0 ? std::sqrt(m2_ / static_cast<double>(count_)) : 0.0; }

  // For readers that restore statistics written out earlier.
  static RunningStats from(std::int64_t count, double mean, double stddev) {
    RunningStats s;
    s.count_ = count;
    s.mean_ = mean;
    s.m2_ = stddev * stddev * static_cast<double>(count);
    return s;
  }

 private:
  std::int64_t count_ = 0;
  double mean_ = 0;
  double m2_ = 0;
};

}  // namespace p3s::signature
