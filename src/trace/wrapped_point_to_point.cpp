// The C and Fortran wrappers of the point-to-point and persistent-request rows of the
// operation table (core/op_table.hpp).
#include "trace/persistent.hpp"
#include "trace/point_to_point.hpp"
#include "trace/wrapper_macros.hpp"

// One recording function per row: its `record` statement over the parameters' values.
#define P3S_RECORD_FUNCTION(Enum, lower, CName, UPPER, nonblocking, params, record)             \
  void record_op_##Enum(RecordedCall& call, P3S_LIST(P3S_VALUE_PARAM, P3S_PP_UNPAREN params)) { \
    P3S_PP_UNPAREN record;                                                                      \
  }
#define P3S_WRAPPERS(Enum, lower, CName, UPPER, nonblocking, params, record) \
  P3S_WRAP(Enum, CName, lower, UPPER, P3S_PP_UNPAREN params)

namespace p3s::trace {
namespace {
P3S_POINT_TO_POINT_OPS(P3S_RECORD_FUNCTION)
P3S_PERSISTENT_OPS(P3S_RECORD_FUNCTION)
}  // namespace
}  // namespace p3s::trace

P3S_POINT_TO_POINT_OPS(P3S_WRAPPERS)
P3S_PERSISTENT_OPS(P3S_WRAPPERS)
