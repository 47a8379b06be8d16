#pragma once
// Message sizes in bytes, from counts and datatypes or from a receive's status.
#include <mpi.h>

#include <cstdint>

namespace p3s::trace {

// Size of one element of `type`; 0 for MPI_DATATYPE_NULL and for the null handle an invalid
// Fortran datatype converts to.
std::int64_t type_bytes(MPI_Datatype type);
// count x type size; the type is not consulted for a count of 0 (it may be a dummy then).
std::int64_t message_bytes(int count, MPI_Datatype type);
// Bytes a completed receive (or a probe) found, from its status.
std::int64_t received_bytes(const MPI_Status& status);
// A receive's tag as the trace writes it (MPI_ANY_TAG is core::kAnyTag).
std::int32_t receive_tag(int tag);

}  // namespace p3s::trace
