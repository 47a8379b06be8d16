#pragma once
// Generates the C and the Fortran wrapper of each wrapped call of the operation table
// (core/op_table.hpp) from the row's parameter list; both record through one function,
// p3s::trace::record_op_<Enum>(call, values...) (recorded_calls.hpp).
#include <mpi.h>

#include "core/op.hpp"
#include "trace/exported.hpp"
#include "trace/fortran_binding.hpp"
#include "trace/tracer.hpp"
#include "trace/wrapper_args.hpp"

// clang-format off

#define P3S_PP_CAT(a, b) P3S_PP_CAT_(a, b)
#define P3S_PP_CAT_(a, b) a##b
#define P3S_PP_UNPAREN(...) __VA_ARGS__
#define P3S_PP_COMMA() ,
#define P3S_PP_NOTHING()
#define P3S_PP_COUNT(...) P3S_PP_COUNT_(__VA_ARGS__, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
#define P3S_PP_COUNT_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, n, ...) n

// P3S_MAP(m, sep, (K1, n1), (K2, n2), ...): m(K1, n1) sep() m(K2, n2) ..., for up to 14
// parameters.
#define P3S_MAP(m, sep, ...) P3S_PP_CAT(P3S_MAP_, P3S_PP_COUNT(__VA_ARGS__))(m, sep, __VA_ARGS__)
#define P3S_MAP_1(m, sep, x) m x
#define P3S_MAP_2(m, sep, x, ...) m x sep() P3S_MAP_1(m, sep, __VA_ARGS__)
#define P3S_MAP_3(m, sep, x, ...) m x sep() P3S_MAP_2(m, sep, __VA_ARGS__)
#define P3S_MAP_4(m, sep, x, ...) m x sep() P3S_MAP_3(m, sep, __VA_ARGS__)
#define P3S_MAP_5(m, sep, x, ...) m x sep() P3S_MAP_4(m, sep, __VA_ARGS__)
#define P3S_MAP_6(m, sep, x, ...) m x sep() P3S_MAP_5(m, sep, __VA_ARGS__)
#define P3S_MAP_7(m, sep, x, ...) m x sep() P3S_MAP_6(m, sep, __VA_ARGS__)
#define P3S_MAP_8(m, sep, x, ...) m x sep() P3S_MAP_7(m, sep, __VA_ARGS__)
#define P3S_MAP_9(m, sep, x, ...) m x sep() P3S_MAP_8(m, sep, __VA_ARGS__)
#define P3S_MAP_10(m, sep, x, ...) m x sep() P3S_MAP_9(m, sep, __VA_ARGS__)
#define P3S_MAP_11(m, sep, x, ...) m x sep() P3S_MAP_10(m, sep, __VA_ARGS__)
#define P3S_MAP_12(m, sep, x, ...) m x sep() P3S_MAP_11(m, sep, __VA_ARGS__)
#define P3S_MAP_13(m, sep, x, ...) m x sep() P3S_MAP_12(m, sep, __VA_ARGS__)
#define P3S_MAP_14(m, sep, x, ...) m x sep() P3S_MAP_13(m, sep, __VA_ARGS__)

#define P3S_LIST(m, ...) P3S_MAP(m, P3S_PP_COMMA, __VA_ARGS__)
#define P3S_EACH(m, ...) P3S_MAP(m, P3S_PP_NOTHING, __VA_ARGS__)

// Per parameter: its C and Fortran declarations, its name, its binding, what MPI is passed,
// the value the recording gets, and the recording function's parameter.
#define P3S_C_PARAM(KIND, name) p3s::trace::c_arg::KIND::param name
#define P3S_F_PARAM(KIND, name) p3s::trace::f_arg::KIND::param name
#define P3S_NAME(KIND, name) name
#define P3S_C_BIND(KIND, name) p3s::trace::c_arg::KIND name##_arg{name};
#define P3S_F_BIND(KIND, name) p3s::trace::f_arg::KIND name##_arg{name};
#define P3S_PASS(KIND, name) name##_arg.pass()
#define P3S_VALUE(KIND, name) name##_arg.value()
#define P3S_VALUE_PARAM(KIND, name) [[maybe_unused]] p3s::trace::c_arg::KIND::value_type name

// Expands P3S_WRAP_CALL(Enum, CName, lower, UPPER, (KIND, name)...) once per wrapped call of
// the table: the point-to-point and persistent rows, and each collective row twice, blocking
// and non-blocking (MPI_I<lower>, a request added). The including file defines P3S_WRAP_CALL.
#define P3S_WRAPPED_ROW(Enum, lower, CName, UPPER, nonblocking, params, record)                    \
  P3S_WRAP_CALL(Enum, CName, lower, UPPER, P3S_PP_UNPAREN params)
#define P3S_WRAPPED_COLLECTIVE(Enum, IEnum, lower, CName, UPPER, rooted, bytes, ti, params, args)  \
  P3S_WRAP_CALL(Enum, CName, lower, UPPER, P3S_PP_UNPAREN params)                                  \
  P3S_WRAP_CALL(IEnum, P3S_PP_CAT(I, lower), P3S_PP_CAT(i, lower), P3S_PP_CAT(I, UPPER),           \
                P3S_PP_UNPAREN params, (REQUEST, request))
#define P3S_FOR_EACH_WRAPPED_CALL                                                                  \
  P3S_POINT_TO_POINT_OPS(P3S_WRAPPED_ROW)                                                          \
  P3S_PERSISTENT_OPS(P3S_WRAPPED_ROW)                                                              \
  P3S_COLLECTIVE_OPS(P3S_WRAPPED_COLLECTIVE)

// The C wrapper of one call: MPI_<CName> over PMPI_<CName>. The indirection expands the names
// given as macros (a non-blocking collective's I##lower) before pasting.
#define P3S_C_WRAPPER(...) P3S_C_WRAPPER_(__VA_ARGS__)
#define P3S_C_WRAPPER_(Enum, CName, lower, UPPER, ...)                                             \
  extern "C" P3S_EXPORT int MPI_##CName(P3S_LIST(P3S_C_PARAM, __VA_ARGS__)) {                      \
    if (!p3s::trace::should_record()) return PMPI_##CName(P3S_LIST(P3S_NAME, __VA_ARGS__));        \
    p3s::trace::RecordedCall call(p3s::core::Op::Enum);                                            \
    P3S_EACH(P3S_C_BIND, __VA_ARGS__)                                                              \
    int result = PMPI_##CName(P3S_LIST(P3S_PASS, __VA_ARGS__));                                    \
    if (result == MPI_SUCCESS) {                                                                   \
      p3s::trace::record_op_##Enum(call, P3S_LIST(P3S_VALUE, __VA_ARGS__));                        \
    }                                                                                              \
    return call.commit(result);                                                                    \
  }

// The Fortran wrapper of one call: its four symbols (fortran_binding.hpp) over Open MPI's
// pmpi_<lower>_, with the ierror argument added.
#define P3S_FORTRAN_WRAPPER_OF(...) P3S_FORTRAN_WRAPPER_OF_(__VA_ARGS__)
#define P3S_FORTRAN_WRAPPER_OF_(Enum, CName, lower, UPPER, ...)                                    \
  P3S_FORTRAN_WRAPPER(lower, UPPER, (P3S_LIST(P3S_F_PARAM, __VA_ARGS__), MPI_Fint* ierr),          \
                      (P3S_LIST(P3S_NAME, __VA_ARGS__), ierr)) {                                   \
    if (!p3s::trace::should_record()) {                                                            \
      return pmpi_##lower##_(P3S_LIST(P3S_NAME, __VA_ARGS__), ierr);                               \
    }                                                                                              \
    p3s::trace::RecordedCall call(p3s::core::Op::Enum);                                            \
    P3S_EACH(P3S_F_BIND, __VA_ARGS__)                                                              \
    pmpi_##lower##_(P3S_LIST(P3S_PASS, __VA_ARGS__), ierr);                                        \
    if (p3s::trace::fortran_result(ierr) == MPI_SUCCESS) {                                         \
      p3s::trace::record_op_##Enum(call, P3S_LIST(P3S_VALUE, __VA_ARGS__));                        \
    }                                                                                              \
    call.commit(p3s::trace::fortran_result(ierr));                                                 \
  }

// clang-format on
