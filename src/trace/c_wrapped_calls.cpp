// C wrappers: every wrapped call of the operation table (core/op_table.hpp), generated:
// point-to-point, persistent requests, blocking and non-blocking collectives.
#include "trace/recorded_calls.hpp"

#define P3S_WRAP_CALL(...) P3S_C_WRAPPER(__VA_ARGS__)
P3S_FOR_EACH_WRAPPED_CALL
