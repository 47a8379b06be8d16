// Fortran wrappers: every wrapped call of the operation table (core/op_table.hpp), generated
// from the same rows as the C ones (c_wrapped_calls.cpp).
#include "trace/recorded_calls.hpp"

#define P3S_WRAP_CALL(...) P3S_FORTRAN_WRAPPER_OF(__VA_ARGS__)
P3S_FOR_EACH_WRAPPED_CALL
