// C wrappers: non-blocking collectives.
#include <mpi.h>

#include "trace/exported.hpp"
#include "trace/traced_collective.hpp"

using p3s::core::Op;
using p3s::trace::CollectiveArgs;
using p3s::trace::traced_nonblocking_collective;

extern "C" {

P3S_EXPORT int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  return traced_nonblocking_collective(
      Op::Ibarrier, [&] { return PMPI_Ibarrier(comm, request); },
      [&] { return CollectiveArgs{.comm = comm}; }, [&] { return *request; });
}

P3S_EXPORT int MPI_Ibcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm,
                          MPI_Request* request) {
  return traced_nonblocking_collective(
      Op::Ibcast, [&] { return PMPI_Ibcast(buffer, count, type, root, comm, request); },
      [&] { return CollectiveArgs{.comm = comm, .root = root, .count = count, .type = type}; },
      [&] { return *request; });
}

P3S_EXPORT int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                           MPI_Op op, int root, MPI_Comm comm, MPI_Request* request) {
  return traced_nonblocking_collective(
      Op::Ireduce,
      [&] { return PMPI_Ireduce(sendbuf, recvbuf, count, type, op, root, comm, request); },
      [&] { return CollectiveArgs{.comm = comm, .root = root, .count = count, .type = type}; },
      [&] { return *request; });
}

P3S_EXPORT int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                              MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  return traced_nonblocking_collective(
      Op::Iallreduce,
      [&] { return PMPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm, request); },
      [&] { return CollectiveArgs{.comm = comm, .count = count, .type = type}; },
      [&] { return *request; });
}

P3S_EXPORT int MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                           MPI_Request* request) {
  return traced_nonblocking_collective(
      Op::Igather,
      [&] {
        return PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                            request);
      },
      [&] {
        return CollectiveArgs{.comm = comm,
                              .root = root,
                              .send_in_place = sendbuf == MPI_IN_PLACE,
                              .sendcount = sendcount,
                              .sendtype = sendtype,
                              .recvcount = recvcount,
                              .recvtype = recvtype};
      },
      [&] { return *request; });
}

P3S_EXPORT int MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return traced_nonblocking_collective(
      Op::Igatherv,
      [&] {
        return PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                             root, comm, request);
      },
      [&] {
        return CollectiveArgs{.comm = comm,
                              .root = root,
                              .send_in_place = sendbuf == MPI_IN_PLACE,
                              .sendcount = sendcount,
                              .sendtype = sendtype,
                              .recvcounts = recvcounts,
                              .recvtype = recvtype};
      },
      [&] { return *request; });
}

P3S_EXPORT int MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                            MPI_Comm comm, MPI_Request* request) {
  return traced_nonblocking_collective(
      Op::Iscatter,
      [&] {
        return PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                             request);
      },
      [&] {
        return CollectiveArgs{.comm = comm,
                              .root = root,
                              .recv_in_place = recvbuf == MPI_IN_PLACE,
                              .sendcount = sendcount,
                              .sendtype = sendtype,
                              .recvcount = recvcount,
                              .recvtype = recvtype};
      },
      [&] { return *request; });
}

P3S_EXPORT int MPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                             MPI_Datatype sendtype, void* recvbuf, int recvcount,
                             MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return traced_nonblocking_collective(
      Op::Iscatterv,
      [&] {
        return PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                              root, comm, request);
      },
      [&] {
        return CollectiveArgs{.comm = comm,
                              .root = root,
                              .recv_in_place = recvbuf == MPI_IN_PLACE,
                              .sendcounts = sendcounts,
                              .sendtype = sendtype,
                              .recvcount = recvcount,
                              .recvtype = recvtype};
      },
      [&] { return *request; });
}

P3S_EXPORT int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                              void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request* request) {
  return traced_nonblocking_collective(
      Op::Iallgather,
      [&] {
        return PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                               request);
      },
      [&] {
        return CollectiveArgs{.comm = comm,
                              .send_in_place = sendbuf == MPI_IN_PLACE,
                              .sendcount = sendcount,
                              .sendtype = sendtype,
                              .recvcount = recvcount,
                              .recvtype = recvtype};
      },
      [&] { return *request; });
}

P3S_EXPORT int MPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                               void* recvbuf, const int recvcounts[], const int displs[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return traced_nonblocking_collective(
      Op::Iallgatherv,
      [&] {
        return PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                                comm, request);
      },
      [&] {
        return CollectiveArgs{.comm = comm,
                              .send_in_place = sendbuf == MPI_IN_PLACE,
                              .sendcount = sendcount,
                              .sendtype = sendtype,
                              .recvcounts = recvcounts,
                              .recvtype = recvtype};
      },
      [&] { return *request; });
}

P3S_EXPORT int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request* request) {
  return traced_nonblocking_collective(
      Op::Ialltoall,
      [&] {
        return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              request);
      },
      [&] {
        return CollectiveArgs{.comm = comm,
                              .send_in_place = sendbuf == MPI_IN_PLACE,
                              .sendcount = sendcount,
                              .sendtype = sendtype,
                              .recvcount = recvcount,
                              .recvtype = recvtype};
      },
      [&] { return *request; });
}

P3S_EXPORT int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                              MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                              const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request* request) {
  return traced_nonblocking_collective(
      Op::Ialltoallv,
      [&] {
        return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                               recvtype, comm, request);
      },
      [&] {
        return CollectiveArgs{.comm = comm,
                              .send_in_place = sendbuf == MPI_IN_PLACE,
                              .sendcounts = sendcounts,
                              .sendtype = sendtype,
                              .recvcounts = recvcounts,
                              .recvtype = recvtype};
      },
      [&] { return *request; });
}

P3S_EXPORT int MPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                              const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                              const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                              MPI_Request* request) {
  return traced_nonblocking_collective(
      Op::Ialltoallw,
      [&] {
        return PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                               rdispls, recvtypes, comm, request);
      },
      [&] {
        return CollectiveArgs{.comm = comm,
                              .send_in_place = sendbuf == MPI_IN_PLACE,
                              .sendcounts = sendcounts,
                              .sendtypes = sendtypes,
                              .recvcounts = recvcounts,
                              .recvtypes = recvtypes};
      },
      [&] { return *request; });
}

P3S_EXPORT int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                                   MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                                   MPI_Request* request) {
  return traced_nonblocking_collective(
      Op::IreduceScatter,
      [&] { return PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm, request); },
      [&] { return CollectiveArgs{.comm = comm, .type = type, .recvcounts = recvcounts}; },
      [&] { return *request; });
}

P3S_EXPORT int MPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                                         MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                                         MPI_Request* request) {
  return traced_nonblocking_collective(
      Op::IreduceScatterBlock,
      [&] {
        return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm, request);
      },
      [&] { return CollectiveArgs{.comm = comm, .count = recvcount, .type = type}; },
      [&] { return *request; });
}

P3S_EXPORT int MPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                         MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  return traced_nonblocking_collective(
      Op::Iscan, [&] { return PMPI_Iscan(sendbuf, recvbuf, count, type, op, comm, request); },
      [&] { return CollectiveArgs{.comm = comm, .count = count, .type = type}; },
      [&] { return *request; });
}

P3S_EXPORT int MPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                           MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  return traced_nonblocking_collective(
      Op::Iexscan, [&] { return PMPI_Iexscan(sendbuf, recvbuf, count, type, op, comm, request); },
      [&] { return CollectiveArgs{.comm = comm, .count = count, .type = type}; },
      [&] { return *request; });
}

}  // extern "C"
