#pragma once
// Temporary arrays for completion calls: snapshots of request handles (a completed request's
// handle is overwritten with MPI_REQUEST_NULL) and statuses the program chose to ignore.
#include <cstddef>
#include <memory>

namespace p3s::trace {

// Completion calls look at up to this many requests without allocating.
inline constexpr std::size_t kInlineRequests = 64;

// n elements, on the stack up to InlineCount, on the heap beyond (rare, very long arrays).
template <typename T, std::size_t InlineCount>
class ScratchArray {
 public:
  explicit ScratchArray(std::size_t n) {
    if (n > InlineCount) {
      heap_ = std::make_unique_for_overwrite<T[]>(n);
      data_ = heap_.get();
    }
  }
  ScratchArray(const ScratchArray&) = delete;
  ScratchArray& operator=(const ScratchArray&) = delete;

  T* data() { return data_; }
  T& operator[](std::size_t i) { return data_[i]; }

 private:
  T inline_[InlineCount];
  std::unique_ptr<T[]> heap_;
  T* data_ = inline_;
};

}  // namespace p3s::trace
