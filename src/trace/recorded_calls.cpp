// The recording functions of the wrapped calls, from the operation table's `record` column
// (point-to-point, persistent) and `args` column (collectives, blocking and non-blocking).
#include "trace/recorded_calls.hpp"

#include "trace/collectives.hpp"
#include "trace/persistent.hpp"
#include "trace/point_to_point.hpp"

namespace p3s::trace {
namespace {

// The CollectiveArgs a collective row describes.
#define P3S_DESCRIBE(Enum, IEnum, lower, CName, UPPER, rooted, bytes, ti, params, args) \
  CollectiveArgs describe_##Enum(P3S_LIST(P3S_VALUE_PARAM, P3S_PP_UNPAREN params)) {    \
    return {P3S_PP_UNPAREN args};                                                       \
  }
P3S_COLLECTIVE_OPS(P3S_DESCRIBE)
#undef P3S_DESCRIBE

}  // namespace

#define P3S_RECORD(Enum, lower, CName, UPPER, nonblocking, params, record)                      \
  void record_op_##Enum(RecordedCall& call, P3S_LIST(P3S_VALUE_PARAM, P3S_PP_UNPAREN params)) { \
    P3S_PP_UNPAREN record;                                                                      \
  }
P3S_POINT_TO_POINT_OPS(P3S_RECORD)
P3S_PERSISTENT_OPS(P3S_RECORD)
#undef P3S_RECORD

#define P3S_RECORD_COLLECTIVE(Enum, IEnum, lower, CName, UPPER, rooted, bytes, ti, params, args) \
  void record_op_##Enum(RecordedCall& call, P3S_LIST(P3S_VALUE_PARAM, P3S_PP_UNPAREN params)) {  \
    record_collective(call, describe_##Enum(P3S_LIST(P3S_NAME, P3S_PP_UNPAREN params)));         \
  }                                                                                              \
  void record_op_##IEnum(RecordedCall& call,                                                     \
                         P3S_LIST(P3S_VALUE_PARAM, P3S_PP_UNPAREN params, (REQUEST, request))) { \
    record_nonblocking_collective(                                                               \
        call, describe_##Enum(P3S_LIST(P3S_NAME, P3S_PP_UNPAREN params)), request);              \
  }
P3S_COLLECTIVE_OPS(P3S_RECORD_COLLECTIVE)
#undef P3S_RECORD_COLLECTIVE

}  // namespace p3s::trace
