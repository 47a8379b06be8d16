#include "trace/message_bytes.hpp"

#include "core/event.hpp"

namespace p3s::trace {

std::int64_t type_bytes(MPI_Datatype type) {
  // A zero handle is no type: nullptr in Open MPI, 0 in MPICH (whose handles are integers).
  if (type == MPI_DATATYPE_NULL || type == MPI_Datatype{}) return 0;
  MPI_Count size = 0;
  // The _x form does not overflow for types larger than 2 GiB.
  if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS || size == MPI_UNDEFINED) return 0;
  return static_cast<std::int64_t>(size);
}

std::int64_t message_bytes(int count, MPI_Datatype type) {
  return count > 0 ? count * type_bytes(type) : 0;
}

std::int64_t received_bytes(const MPI_Status& status) {
  MPI_Count bytes = 0;
  // Elements of MPI_BYTE are bytes; the _x form does not overflow past 2 GiB as Get_count does.
  if (PMPI_Get_elements_x(&status, MPI_BYTE, &bytes) != MPI_SUCCESS || bytes == MPI_UNDEFINED) {
    return 0;
  }
  return static_cast<std::int64_t>(bytes);
}

std::int32_t receive_tag(int tag) {
  return tag == MPI_ANY_TAG ? core::kAnyTag : tag;
}

}  // namespace p3s::trace
