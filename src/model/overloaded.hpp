#pragma once
// The usual visitor helper for std::visit over the rule variants.

namespace p3s::model {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
// C++20 deduces this for aggregates, but clang before 17 does not (the fuzz build uses clang).
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace p3s::model
