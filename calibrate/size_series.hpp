#pragma once
// The repetitions of one test at each message size, reduced to their least (the repetition the
// system disturbed least: a rank descheduled by another process, a page fault or a timer only
// ever add time) and their range.
#include <cstdint>
#include <optional>
#include <vector>

#include "calibrate/measurements.hpp"

namespace p3s::calibrate {

struct SizePoint {
  std::int64_t bytes = 0;
  double seconds = 0;  // the least repetition
  double low = 0, high = 0;
  std::size_t count = 0;
};

double median(std::vector<double> values);  // of a non-empty list

class SizeSeries {
 public:
  SizeSeries() = default;
  // The samples of `test` on `link` with `pairs` pairs at once (the leader of each pair counts).
  SizeSeries(const std::vector<MessageSample>& samples, Test test, LinkKind link, int pairs);

  const std::vector<SizePoint>& points() const { return points_; }  // by increasing size
  std::size_t size() const { return points_.size(); }
  bool empty() const { return points_.empty(); }
  std::optional<double> at(std::int64_t bytes) const;
  // The median over sizes of each size's half range relative to its median: the noise.
  double relative_spread() const;

 private:
  std::vector<SizePoint> points_;
};

}  // namespace p3s::calibrate
