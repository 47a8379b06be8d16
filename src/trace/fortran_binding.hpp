#pragma once
// Fortran entry points. Open MPI's mpif.h and `use mpi` bindings (mpi_send_ ...) call PMPI_Send
// and friends directly, so the C wrappers never see a Fortran program's calls. The tracer
// therefore defines the Fortran symbols too: each converts the Fortran handles it needs to C
// handles for recording, and does the real work through Open MPI's own Fortran entry point
// (pmpi_send_ in libmpi_mpifh), so Fortran semantics (MPI_IN_PLACE, MPI_BOTTOM, status
// arrays, ierror) stay exactly Open MPI's.
#include <mpi.h>

#include <cstddef>
#include <vector>

#include "trace/exported.hpp"
#include "trace/scratch_array.hpp"

// Defines the Fortran routine `name` (lower case, without its MPI_ prefix) under every symbol
// gfortran programs link against: mpi_send_, mpi_send__, mpi_send and MPI_SEND, all calling
// fortran_send, whose body follows the macro; and declares Open MPI's pmpi_send_ for it.
// `params` is the parenthesised parameter list, `args` the same names as arguments.
#define P3S_FORTRAN_WRAPPER(name, NAME, params, args) \
  extern "C" void pmpi_##name##_ params;              \
  static void fortran_##name params;                  \
  extern "C" P3S_EXPORT void mpi_##name##_ params {   \
    fortran_##name args;                              \
  }                                                   \
  extern "C" P3S_EXPORT void mpi_##name##__ params {  \
    fortran_##name args;                              \
  }                                                   \
  extern "C" P3S_EXPORT void mpi_##name params {      \
    fortran_##name args;                              \
  }                                                   \
  extern "C" P3S_EXPORT void MPI_##NAME params {      \
    fortran_##name args;                              \
  }                                                   \
  static void fortran_##name params

// Open MPI's Fortran MPI_IN_PLACE: the address of this common block.
extern "C" int mpi_fortran_in_place_;

namespace p3s::trace {

inline constexpr std::size_t kFortranStatusSize = sizeof(MPI_Status) / sizeof(MPI_Fint);

// The MPI result of a Fortran call, from its ierror argument.
inline int fortran_result(const MPI_Fint* ierr) {
  return ierr != nullptr ? *ierr : MPI_SUCCESS;
}

inline bool is_fortran_in_place(const void* buffer) {
  return buffer == &mpi_fortran_in_place_;
}

inline MPI_Comm c_comm(const MPI_Fint* comm) {
  return PMPI_Comm_f2c(*comm);
}
inline MPI_Datatype c_type(const MPI_Fint* type) {
  return PMPI_Type_f2c(*type);
}
inline MPI_Request c_request(const MPI_Fint* request) {
  return PMPI_Request_f2c(*request);
}

inline std::size_t fortran_length(const MPI_Fint* count) {
  return *count > 0 ? static_cast<std::size_t>(*count) : 0;
}

// The C request handles of a Fortran request array, taken before a completion call frees them.
class CRequests {
 public:
  CRequests(const MPI_Fint* requests, std::size_t count);
  MPI_Request operator[](std::size_t i) { return handles_[i]; }

 private:
  ScratchArray<MPI_Request, kInlineRequests> handles_;
};

// A Fortran status argument the tracer can read even when the program passed
// MPI_STATUS_IGNORE: Open MPI then fills the tracer's own.
class FortranStatus {
 public:
  explicit FortranStatus(MPI_Fint* program_status)
      : target_(program_status == MPI_F_STATUS_IGNORE ? own_ : program_status) {}
  MPI_Fint* get() { return target_; }
  MPI_Status to_c() const;

 private:
  MPI_Fint own_[kFortranStatusSize];
  MPI_Fint* target_;
};

// The same for an array of statuses (MPI_STATUSES_IGNORE).
class FortranStatuses {
 public:
  FortranStatuses(MPI_Fint* program_statuses, std::size_t count);
  MPI_Fint* get() { return target_; }
  MPI_Status to_c(std::size_t i) const;

 private:
  ScratchArray<MPI_Fint, kInlineRequests * kFortranStatusSize> own_;
  MPI_Fint* target_;
};

}  // namespace p3s::trace
