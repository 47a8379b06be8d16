#pragma once
// The parameter kinds of the operation table (core/op_table.hpp): for each, its C form
// (c_arg) and its Fortran form (f_arg). A generated wrapper binds each parameter
// (`KIND name_arg{name}`), passes `pass()` to MPI and gives `value()`, read after the call, to
// the recording: the same C value in both languages (c_arg::KIND::value_type), so one
// recording function serves the C and the Fortran wrapper of a row.
#include <mpi.h>

#include "trace/fortran_binding.hpp"
#include "trace/handle_array.hpp"

namespace p3s::trace {

// A buffer argument as the recording sees it.
struct Buffer {
  bool in_place = false;  // MPI_IN_PLACE (C) or Open MPI's Fortran MPI_IN_PLACE
};

// An argument the recording never reads (a reduction's MPI_Op).
struct Unread {};

// A parameter MPI gets as it came and the recording gets as `convert` makes it.
template <typename Param, typename Value, auto convert>
struct Bound {
  using param = Param;
  using value_type = Value;
  Param arg;
  Param pass() const { return arg; }
  Value value() const { return convert(arg); }
};

namespace c_arg {

template <typename T>
T same(T arg) {
  return arg;
}
// An output (a request, a flag): what MPI wrote.
template <typename T>
T written(T* arg) {
  return *arg;
}
template <typename Pointer>
Buffer buffer(Pointer arg) {
  return Buffer{.in_place = arg == MPI_IN_PLACE};
}
inline TypeArray types(const MPI_Datatype* arg) {
  return TypeArray::c(arg);
}
inline RequestArray requests(MPI_Request* arg) {
  return RequestArray::c(arg);
}
inline Unread unread(MPI_Op) {
  return {};
}

using INT = Bound<int, int, same<int>>;
using INTS = Bound<const int*, const int*, same<const int*>>;
using TYPE = Bound<MPI_Datatype, MPI_Datatype, same<MPI_Datatype>>;
using COMM = Bound<MPI_Comm, MPI_Comm, same<MPI_Comm>>;
using SBUF = Bound<const void*, Buffer, buffer<const void*>>;
using RBUF = Bound<void*, Buffer, buffer<void*>>;
using TYPES = Bound<const MPI_Datatype*, TypeArray, types>;
using OP = Bound<MPI_Op, Unread, unread>;
using REQUEST = Bound<MPI_Request*, MPI_Request, written<MPI_Request>>;
using REQUESTS = Bound<MPI_Request*, RequestArray, requests>;
using FLAG = Bound<int*, int, written<int>>;

// A status the tracer can read even when the program passed MPI_STATUS_IGNORE.
class STATUS {
 public:
  using param = MPI_Status*;
  using value_type = const MPI_Status&;
  explicit STATUS(MPI_Status* status) : target_(status == MPI_STATUS_IGNORE ? &own_ : status) {}
  STATUS(const STATUS&) = delete;
  STATUS& operator=(const STATUS&) = delete;
  MPI_Status* pass() const { return target_; }
  const MPI_Status& value() const { return *target_; }

 private:
  MPI_Status own_;
  MPI_Status* target_;
};

}  // namespace c_arg

// The Fortran forms: every argument is a pointer (the ierror argument is not in the table;
// the generated wrapper adds it) and its value is the C one.
namespace f_arg {

inline int integer(MPI_Fint* arg) {
  return *arg;
}
// Counts per peer are read in place: MPI_Fint is a C int.
inline const int* integers(MPI_Fint* arg) {
  return arg;
}
inline Buffer buffer(void* arg) {
  return Buffer{.in_place = is_fortran_in_place(arg)};
}
inline TypeArray types(MPI_Fint* arg) {
  return TypeArray::fortran(arg);
}
inline RequestArray requests(MPI_Fint* arg) {
  return RequestArray::fortran(arg);
}
inline Unread unread(MPI_Fint*) {
  return {};
}

using INT = Bound<MPI_Fint*, int, integer>;
using FLAG = INT;
using INTS = Bound<MPI_Fint*, const int*, integers>;
using TYPE = Bound<MPI_Fint*, MPI_Datatype, c_type>;
using COMM = Bound<MPI_Fint*, MPI_Comm, c_comm>;
using SBUF = Bound<void*, Buffer, buffer>;
using RBUF = SBUF;
using TYPES = Bound<MPI_Fint*, TypeArray, types>;
using OP = Bound<MPI_Fint*, Unread, unread>;
using REQUEST = Bound<MPI_Fint*, MPI_Request, c_request>;
using REQUESTS = Bound<MPI_Fint*, RequestArray, requests>;

class STATUS {
 public:
  using param = MPI_Fint*;
  explicit STATUS(MPI_Fint* status) : status_(status) {}
  MPI_Fint* pass() { return status_.get(); }
  MPI_Status value() const { return status_.to_c(); }

 private:
  FortranStatus status_;
};

}  // namespace f_arg
}  // namespace p3s::trace
