#include "trace/fortran_binding.hpp"

namespace p3s::trace {

CRequests::CRequests(const MPI_Fint* requests, std::size_t count) : handles_(count) {
  for (std::size_t i = 0; i < count; ++i) handles_[i] = PMPI_Request_f2c(requests[i]);
}

MPI_Status FortranStatus::to_c() const {
  MPI_Status status;
  PMPI_Status_f2c(target_, &status);
  return status;
}

FortranStatuses::FortranStatuses(MPI_Fint* program_statuses, std::size_t count)
    : own_(program_statuses == MPI_F_STATUSES_IGNORE ? count * kFortranStatusSize : 0),
      target_(program_statuses == MPI_F_STATUSES_IGNORE ? own_.data() : program_statuses) {}

MPI_Status FortranStatuses::to_c(std::size_t i) const {
  MPI_Status status;
  PMPI_Status_f2c(target_ + i * kFortranStatusSize, &status);
  return status;
}

}  // namespace p3s::trace
