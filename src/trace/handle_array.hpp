#pragma once
// An array of MPI handles given by a C or a Fortran program: the datatypes per peer of
// Alltoallw, the requests of Startall. A Fortran handle is converted when read, so elements
// MPI does not read (an in-place send side) are not read either.
#include <mpi.h>

namespace p3s::trace {

template <typename Handle, Handle (*from_fortran)(MPI_Fint)>
class HandleArray {
 public:
  HandleArray() = default;
  static HandleArray c(const Handle* handles) { return HandleArray(handles, nullptr); }
  static HandleArray fortran(const MPI_Fint* handles) { return HandleArray(nullptr, handles); }
  Handle operator[](int i) const { return c_ != nullptr ? c_[i] : from_fortran(fortran_[i]); }

 private:
  HandleArray(const Handle* c, const MPI_Fint* fortran) : c_(c), fortran_(fortran) {}
  const Handle* c_ = nullptr;
  const MPI_Fint* fortran_ = nullptr;
};

// Functions, not the MPI names: MPICH defines PMPI_Type_f2c and PMPI_Request_f2c as macros.
inline MPI_Datatype type_from_fortran(MPI_Fint type) {
  return PMPI_Type_f2c(type);
}
inline MPI_Request request_from_fortran(MPI_Fint request) {
  return PMPI_Request_f2c(request);
}

using TypeArray = HandleArray<MPI_Datatype, type_from_fortran>;
using RequestArray = HandleArray<MPI_Request, request_from_fortran>;

}  // namespace p3s::trace
