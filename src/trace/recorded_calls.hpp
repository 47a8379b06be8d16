#pragma once
// One recording function per wrapped call of the operation table (core/op_table.hpp), shared
// by its C and its Fortran wrapper: record_op_<Enum>(call, values...), the values being the
// parameters' C values (wrapper_args.hpp).
#include "trace/wrapper_macros.hpp"

namespace p3s::trace {

#define P3S_WRAP_CALL(Enum, CName, lower, UPPER, ...) \
  void record_op_##Enum(RecordedCall& call, P3S_LIST(P3S_VALUE_PARAM, __VA_ARGS__));
P3S_FOR_EACH_WRAPPED_CALL
#undef P3S_WRAP_CALL

}  // namespace p3s::trace
