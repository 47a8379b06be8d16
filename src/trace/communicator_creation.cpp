#include "trace/communicator_creation.hpp"

namespace p3s::trace {

void record_communicator_created(RecordedCall& call, MPI_Comm parent, MPI_Comm created) {
  core::Event& event = call.event();
  event.comm = call.communicator(parent).id;
  if (created != MPI_COMM_NULL) event.req = communicators().add(created).id;
}

void forget_communicator(MPI_Comm comm) {
  communicators().forget(comm);
}

}  // namespace p3s::trace
