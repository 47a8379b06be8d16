#pragma once
// The usual visitor helper for std::visit over the rule variants.

namespace p3s::model {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};

}  // namespace p3s::model
