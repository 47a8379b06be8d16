// The C and Fortran wrappers of the collective rows of the operation table
// (core/op_table.hpp): each row's blocking call and, with a request added, its non-blocking
// form (MPI_I<lower>).
#include "trace/collectives.hpp"
#include "trace/wrapper_macros.hpp"

// Per row: the CollectiveArgs its `args` column describes, and the recording functions of the
// blocking and the non-blocking form.
#define P3S_RECORD_FUNCTIONS(Enum, IEnum, lower, CName, UPPER, rooted, bytes, ti, params, args) \
  CollectiveArgs describe_##Enum(P3S_LIST(P3S_VALUE_PARAM, P3S_PP_UNPAREN params)) {            \
    return {P3S_PP_UNPAREN args};                                                               \
  }                                                                                             \
  void record_op_##Enum(RecordedCall& call, P3S_LIST(P3S_VALUE_PARAM, P3S_PP_UNPAREN params)) { \
    record_collective(call, describe_##Enum(P3S_LIST(P3S_NAME, P3S_PP_UNPAREN params)));        \
  }                                                                                             \
  void record_op_##IEnum(RecordedCall& call, P3S_LIST(P3S_VALUE_PARAM, P3S_PP_UNPAREN params),  \
                         MPI_Request request) {                                                 \
    record_nonblocking_collective(                                                              \
        call, describe_##Enum(P3S_LIST(P3S_NAME, P3S_PP_UNPAREN params)), request);             \
  }
#define P3S_WRAPPERS(Enum, IEnum, lower, CName, UPPER, rooted, bytes, ti, params, args) \
  P3S_WRAP(Enum, CName, lower, UPPER, P3S_PP_UNPAREN params)                            \
  P3S_WRAP(IEnum, P3S_PP_CAT(I, lower), P3S_PP_CAT(i, lower), P3S_PP_CAT(I, UPPER),     \
           P3S_PP_UNPAREN params, (REQUEST, request))

namespace p3s::trace {
namespace {
P3S_COLLECTIVE_OPS(P3S_RECORD_FUNCTIONS)
}  // namespace
}  // namespace p3s::trace

P3S_COLLECTIVE_OPS(P3S_WRAPPERS)
