// C wrappers: blocking collectives.
#include <mpi.h>

#include "trace/exported.hpp"
#include "trace/traced_collective.hpp"

using p3s::core::Op;
using p3s::trace::CollectiveArgs;
using p3s::trace::traced_collective;

extern "C" {

P3S_EXPORT int MPI_Barrier(MPI_Comm comm) {
  return traced_collective(
      Op::Barrier, [&] { return PMPI_Barrier(comm); },
      [&] { return CollectiveArgs{.comm = comm}; });
}

P3S_EXPORT int MPI_Bcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  return traced_collective(
      Op::Bcast, [&] { return PMPI_Bcast(buffer, count, type, root, comm); },
      [&] { return CollectiveArgs{.comm = comm, .root = root, .count = count, .type = type}; });
}

P3S_EXPORT int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                          MPI_Op op, int root, MPI_Comm comm) {
  return traced_collective(
      Op::Reduce, [&] { return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm); },
      [&] { return CollectiveArgs{.comm = comm, .root = root, .count = count, .type = type}; });
}

P3S_EXPORT int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                             MPI_Op op, MPI_Comm comm) {
  return traced_collective(
      Op::Allreduce, [&] { return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm); },
      [&] { return CollectiveArgs{.comm = comm, .count = count, .type = type}; });
}

P3S_EXPORT int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                          int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return traced_collective(
      Op::Gather,
      [&] {
        return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
      },
      [&] {
        return CollectiveArgs{.comm = comm,
                              .root = root,
                              .send_in_place = sendbuf == MPI_IN_PLACE,
                              .sendcount = sendcount,
                              .sendtype = sendtype,
                              .recvcount = recvcount,
                              .recvtype = recvtype};
      });
}

P3S_EXPORT int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                           int root, MPI_Comm comm) {
  return traced_collective(
      Op::Gatherv,
      [&] {
        return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                            root, comm);
      },
      [&] {
        return CollectiveArgs{.comm = comm,
                              .root = root,
                              .send_in_place = sendbuf == MPI_IN_PLACE,
                              .sendcount = sendcount,
                              .sendtype = sendtype,
                              .recvcounts = recvcounts,
                              .recvtype = recvtype};
      });
}

P3S_EXPORT int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return traced_collective(
      Op::Scatter,
      [&] {
        return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
      },
      [&] {
        return CollectiveArgs{.comm = comm,
                              .root = root,
                              .recv_in_place = recvbuf == MPI_IN_PLACE,
                              .sendcount = sendcount,
                              .sendtype = sendtype,
                              .recvcount = recvcount,
                              .recvtype = recvtype};
      });
}

P3S_EXPORT int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                            MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return traced_collective(
      Op::Scatterv,
      [&] {
        return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                             root, comm);
      },
      [&] {
        return CollectiveArgs{.comm = comm,
                              .root = root,
                              .recv_in_place = recvbuf == MPI_IN_PLACE,
                              .sendcounts = sendcounts,
                              .sendtype = sendtype,
                              .recvcount = recvcount,
                              .recvtype = recvtype};
      });
}

P3S_EXPORT int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return traced_collective(
      Op::Allgather,
      [&] {
        return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
      },
      [&] {
        return CollectiveArgs{.comm = comm,
                              .send_in_place = sendbuf == MPI_IN_PLACE,
                              .sendcount = sendcount,
                              .sendtype = sendtype,
                              .recvcount = recvcount,
                              .recvtype = recvtype};
      });
}

P3S_EXPORT int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                              void* recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm) {
  return traced_collective(
      Op::Allgatherv,
      [&] {
        return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                               comm);
      },
      [&] {
        return CollectiveArgs{.comm = comm,
                              .send_in_place = sendbuf == MPI_IN_PLACE,
                              .sendcount = sendcount,
                              .sendtype = sendtype,
                              .recvcounts = recvcounts,
                              .recvtype = recvtype};
      });
}

P3S_EXPORT int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return traced_collective(
      Op::Alltoall,
      [&] {
        return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
      },
      [&] {
        return CollectiveArgs{.comm = comm,
                              .send_in_place = sendbuf == MPI_IN_PLACE,
                              .sendcount = sendcount,
                              .sendtype = sendtype,
                              .recvcount = recvcount,
                              .recvtype = recvtype};
      });
}

P3S_EXPORT int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return traced_collective(
      Op::Alltoallv,
      [&] {
        return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                              recvtype, comm);
      },
      [&] {
        return CollectiveArgs{.comm = comm,
                              .send_in_place = sendbuf == MPI_IN_PLACE,
                              .sendcounts = sendcounts,
                              .sendtype = sendtype,
                              .recvcounts = recvcounts,
                              .recvtype = recvtype};
      });
}

P3S_EXPORT int MPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                             const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                             const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return traced_collective(
      Op::Alltoallw,
      [&] {
        return PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                              recvtypes, comm);
      },
      [&] {
        return CollectiveArgs{.comm = comm,
                              .send_in_place = sendbuf == MPI_IN_PLACE,
                              .sendcounts = sendcounts,
                              .sendtypes = sendtypes,
                              .recvcounts = recvcounts,
                              .recvtypes = recvtypes};
      });
}

P3S_EXPORT int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                                  MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return traced_collective(
      Op::ReduceScatter,
      [&] { return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm); },
      [&] { return CollectiveArgs{.comm = comm, .type = type, .recvcounts = recvcounts}; });
}

P3S_EXPORT int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                                        MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return traced_collective(
      Op::ReduceScatterBlock,
      [&] { return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm); },
      [&] { return CollectiveArgs{.comm = comm, .count = recvcount, .type = type}; });
}

P3S_EXPORT int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                        MPI_Comm comm) {
  return traced_collective(
      Op::Scan, [&] { return PMPI_Scan(sendbuf, recvbuf, count, type, op, comm); },
      [&] { return CollectiveArgs{.comm = comm, .count = count, .type = type}; });
}

P3S_EXPORT int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                          MPI_Op op, MPI_Comm comm) {
  return traced_collective(
      Op::Exscan, [&] { return PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm); },
      [&] { return CollectiveArgs{.comm = comm, .count = count, .type = type}; });
}

}  // extern "C"
