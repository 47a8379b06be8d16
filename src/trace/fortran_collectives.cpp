// Fortran wrappers: blocking collectives.
#include <vector>

#include "trace/fortran_binding.hpp"
#include "trace/traced_collective.hpp"

using p3s::core::Op;
using p3s::trace::c_comm;
using p3s::trace::c_type;
using p3s::trace::CollectiveArgs;
using p3s::trace::fortran_result;
using p3s::trace::is_fortran_in_place;
using p3s::trace::traced_collective;

P3S_FORTRAN_WRAPPER(barrier, BARRIER, (MPI_Fint * comm, MPI_Fint* ierr), (comm, ierr)) {
  traced_collective(
      Op::Barrier,
      [&] {
        pmpi_barrier_(comm, ierr);
        return fortran_result(ierr);
      },
      [&] { return CollectiveArgs{.comm = c_comm(comm)}; });
}

P3S_FORTRAN_WRAPPER(bcast, BCAST,
                    (void* buffer, MPI_Fint* count, MPI_Fint* type, MPI_Fint* root, MPI_Fint* comm,
                     MPI_Fint* ierr),
                    (buffer, count, type, root, comm, ierr)) {
  traced_collective(
      Op::Bcast,
      [&] {
        pmpi_bcast_(buffer, count, type, root, comm, ierr);
        return fortran_result(ierr);
      },
      [&] {
        return CollectiveArgs{
            .comm = c_comm(comm), .root = *root, .count = *count, .type = c_type(type)};
      });
}

P3S_FORTRAN_WRAPPER(reduce, REDUCE,
                    (void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* op,
                     MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierr),
                    (sendbuf, recvbuf, count, type, op, root, comm, ierr)) {
  traced_collective(
      Op::Reduce,
      [&] {
        pmpi_reduce_(sendbuf, recvbuf, count, type, op, root, comm, ierr);
        return fortran_result(ierr);
      },
      [&] {
        return CollectiveArgs{
            .comm = c_comm(comm), .root = *root, .count = *count, .type = c_type(type)};
      });
}

P3S_FORTRAN_WRAPPER(allreduce, ALLREDUCE,
                    (void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* op,
                     MPI_Fint* comm, MPI_Fint* ierr),
                    (sendbuf, recvbuf, count, type, op, comm, ierr)) {
  traced_collective(
      Op::Allreduce,
      [&] {
        pmpi_allreduce_(sendbuf, recvbuf, count, type, op, comm, ierr);
        return fortran_result(ierr);
      },
      [&] { return CollectiveArgs{.comm = c_comm(comm), .count = *count, .type = c_type(type)}; });
}

P3S_FORTRAN_WRAPPER(gather, GATHER,
                    (void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, void* recvbuf,
                     MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm,
                     MPI_Fint* ierr),
                    (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                     ierr)) {
  traced_collective(
      Op::Gather,
      [&] {
        pmpi_gather_(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, ierr);
        return fortran_result(ierr);
      },
      [&] {
        return CollectiveArgs{.comm = c_comm(comm),
                              .root = *root,
                              .send_in_place = is_fortran_in_place(sendbuf),
                              .sendcount = *sendcount,
                              .sendtype = c_type(sendtype),
                              .recvcount = *recvcount,
                              .recvtype = c_type(recvtype)};
      });
}

P3S_FORTRAN_WRAPPER(gatherv, GATHERV,
                    (void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, void* recvbuf,
                     MPI_Fint* recvcounts, MPI_Fint* displs, MPI_Fint* recvtype, MPI_Fint* root,
                     MPI_Fint* comm, MPI_Fint* ierr),
                    (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                     comm, ierr)) {
  traced_collective(
      Op::Gatherv,
      [&] {
        pmpi_gatherv_(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                      comm, ierr);
        return fortran_result(ierr);
      },
      [&] {
        return CollectiveArgs{.comm = c_comm(comm),
                              .root = *root,
                              .send_in_place = is_fortran_in_place(sendbuf),
                              .sendcount = *sendcount,
                              .sendtype = c_type(sendtype),
                              .recvcounts = recvcounts,
                              .recvtype = c_type(recvtype)};
      });
}

P3S_FORTRAN_WRAPPER(scatter, SCATTER,
                    (void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, void* recvbuf,
                     MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm,
                     MPI_Fint* ierr),
                    (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                     ierr)) {
  traced_collective(
      Op::Scatter,
      [&] {
        pmpi_scatter_(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, ierr);
        return fortran_result(ierr);
      },
      [&] {
        return CollectiveArgs{.comm = c_comm(comm),
                              .root = *root,
                              .recv_in_place = is_fortran_in_place(recvbuf),
                              .sendcount = *sendcount,
                              .sendtype = c_type(sendtype),
                              .recvcount = *recvcount,
                              .recvtype = c_type(recvtype)};
      });
}

P3S_FORTRAN_WRAPPER(scatterv, SCATTERV,
                    (void* sendbuf, MPI_Fint* sendcounts, MPI_Fint* displs, MPI_Fint* sendtype,
                     void* recvbuf, MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* root,
                     MPI_Fint* comm, MPI_Fint* ierr),
                    (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                     comm, ierr)) {
  traced_collective(
      Op::Scatterv,
      [&] {
        pmpi_scatterv_(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                       comm, ierr);
        return fortran_result(ierr);
      },
      [&] {
        return CollectiveArgs{.comm = c_comm(comm),
                              .root = *root,
                              .recv_in_place = is_fortran_in_place(recvbuf),
                              .sendcounts = sendcounts,
                              .sendtype = c_type(sendtype),
                              .recvcount = *recvcount,
                              .recvtype = c_type(recvtype)};
      });
}

P3S_FORTRAN_WRAPPER(allgather, ALLGATHER,
                    (void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, void* recvbuf,
                     MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* ierr),
                    (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierr)) {
  traced_collective(
      Op::Allgather,
      [&] {
        pmpi_allgather_(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierr);
        return fortran_result(ierr);
      },
      [&] {
        return CollectiveArgs{.comm = c_comm(comm),
                              .send_in_place = is_fortran_in_place(sendbuf),
                              .sendcount = *sendcount,
                              .sendtype = c_type(sendtype),
                              .recvcount = *recvcount,
                              .recvtype = c_type(recvtype)};
      });
}

P3S_FORTRAN_WRAPPER(allgatherv, ALLGATHERV,
                    (void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, void* recvbuf,
                     MPI_Fint* recvcounts, MPI_Fint* displs, MPI_Fint* recvtype, MPI_Fint* comm,
                     MPI_Fint* ierr),
                    (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                     ierr)) {
  traced_collective(
      Op::Allgatherv,
      [&] {
        pmpi_allgatherv_(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                         ierr);
        return fortran_result(ierr);
      },
      [&] {
        return CollectiveArgs{.comm = c_comm(comm),
                              .send_in_place = is_fortran_in_place(sendbuf),
                              .sendcount = *sendcount,
                              .sendtype = c_type(sendtype),
                              .recvcounts = recvcounts,
                              .recvtype = c_type(recvtype)};
      });
}

P3S_FORTRAN_WRAPPER(alltoall, ALLTOALL,
                    (void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, void* recvbuf,
                     MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* ierr),
                    (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierr)) {
  traced_collective(
      Op::Alltoall,
      [&] {
        pmpi_alltoall_(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierr);
        return fortran_result(ierr);
      },
      [&] {
        return CollectiveArgs{.comm = c_comm(comm),
                              .send_in_place = is_fortran_in_place(sendbuf),
                              .sendcount = *sendcount,
                              .sendtype = c_type(sendtype),
                              .recvcount = *recvcount,
                              .recvtype = c_type(recvtype)};
      });
}

P3S_FORTRAN_WRAPPER(alltoallv, ALLTOALLV,
                    (void* sendbuf, MPI_Fint* sendcounts, MPI_Fint* sdispls, MPI_Fint* sendtype,
                     void* recvbuf, MPI_Fint* recvcounts, MPI_Fint* rdispls, MPI_Fint* recvtype,
                     MPI_Fint* comm, MPI_Fint* ierr),
                    (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                     comm, ierr)) {
  traced_collective(
      Op::Alltoallv,
      [&] {
        pmpi_alltoallv_(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype, comm, ierr);
        return fortran_result(ierr);
      },
      [&] {
        return CollectiveArgs{.comm = c_comm(comm),
                              .send_in_place = is_fortran_in_place(sendbuf),
                              .sendcounts = sendcounts,
                              .sendtype = c_type(sendtype),
                              .recvcounts = recvcounts,
                              .recvtype = c_type(recvtype)};
      });
}

P3S_FORTRAN_WRAPPER(alltoallw, ALLTOALLW,
                    (void* sendbuf, MPI_Fint* sendcounts, MPI_Fint* sdispls, MPI_Fint* sendtypes,
                     void* recvbuf, MPI_Fint* recvcounts, MPI_Fint* rdispls, MPI_Fint* recvtypes,
                     MPI_Fint* comm, MPI_Fint* ierr),
                    (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                     recvtypes, comm, ierr)) {
  // The C datatypes of the per-peer type arrays, kept alive until the call is recorded.
  std::vector<MPI_Datatype> c_sendtypes;
  std::vector<MPI_Datatype> c_recvtypes;
  traced_collective(
      Op::Alltoallw,
      [&] {
        pmpi_alltoallw_(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                        recvtypes, comm, ierr);
        return fortran_result(ierr);
      },
      [&] {
        const bool in_place = is_fortran_in_place(sendbuf);
        const int peers = p3s::trace::communicators().lookup(c_comm(comm)).peer_count();
        if (!in_place) c_sendtypes = p3s::trace::c_types(sendtypes, peers);
        c_recvtypes = p3s::trace::c_types(recvtypes, peers);
        return CollectiveArgs{.comm = c_comm(comm),
                              .send_in_place = in_place,
                              .sendcounts = sendcounts,
                              .sendtypes = c_sendtypes.data(),
                              .recvcounts = recvcounts,
                              .recvtypes = c_recvtypes.data()};
      });
}

P3S_FORTRAN_WRAPPER(reduce_scatter, REDUCE_SCATTER,
                    (void* sendbuf, void* recvbuf, MPI_Fint* recvcounts, MPI_Fint* type,
                     MPI_Fint* op, MPI_Fint* comm, MPI_Fint* ierr),
                    (sendbuf, recvbuf, recvcounts, type, op, comm, ierr)) {
  traced_collective(
      Op::ReduceScatter,
      [&] {
        pmpi_reduce_scatter_(sendbuf, recvbuf, recvcounts, type, op, comm, ierr);
        return fortran_result(ierr);
      },
      [&] {
        return CollectiveArgs{.comm = c_comm(comm), .type = c_type(type), .recvcounts = recvcounts};
      });
}

P3S_FORTRAN_WRAPPER(reduce_scatter_block, REDUCE_SCATTER_BLOCK,
                    (void* sendbuf, void* recvbuf, MPI_Fint* recvcount, MPI_Fint* type,
                     MPI_Fint* op, MPI_Fint* comm, MPI_Fint* ierr),
                    (sendbuf, recvbuf, recvcount, type, op, comm, ierr)) {
  traced_collective(
      Op::ReduceScatterBlock,
      [&] {
        pmpi_reduce_scatter_block_(sendbuf, recvbuf, recvcount, type, op, comm, ierr);
        return fortran_result(ierr);
      },
      [&] {
        return CollectiveArgs{.comm = c_comm(comm), .count = *recvcount, .type = c_type(type)};
      });
}

P3S_FORTRAN_WRAPPER(scan, SCAN,
                    (void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* op,
                     MPI_Fint* comm, MPI_Fint* ierr),
                    (sendbuf, recvbuf, count, type, op, comm, ierr)) {
  traced_collective(
      Op::Scan,
      [&] {
        pmpi_scan_(sendbuf, recvbuf, count, type, op, comm, ierr);
        return fortran_result(ierr);
      },
      [&] { return CollectiveArgs{.comm = c_comm(comm), .count = *count, .type = c_type(type)}; });
}

P3S_FORTRAN_WRAPPER(exscan, EXSCAN,
                    (void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* op,
                     MPI_Fint* comm, MPI_Fint* ierr),
                    (sendbuf, recvbuf, count, type, op, comm, ierr)) {
  traced_collective(
      Op::Exscan,
      [&] {
        pmpi_exscan_(sendbuf, recvbuf, count, type, op, comm, ierr);
        return fortran_result(ierr);
      },
      [&] { return CollectiveArgs{.comm = c_comm(comm), .count = *count, .type = c_type(type)}; });
}
