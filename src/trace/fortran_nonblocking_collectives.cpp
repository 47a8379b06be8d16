// Fortran wrappers: non-blocking collectives.
#include <vector>

#include "trace/fortran_binding.hpp"
#include "trace/traced_collective.hpp"

using p3s::core::Op;
using p3s::trace::c_comm;
using p3s::trace::c_request;
using p3s::trace::c_type;
using p3s::trace::CollectiveArgs;
using p3s::trace::fortran_result;
using p3s::trace::is_fortran_in_place;
using p3s::trace::traced_nonblocking_collective;

P3S_FORTRAN_WRAPPER(ibarrier, IBARRIER, (MPI_Fint * comm, MPI_Fint* request, MPI_Fint* ierr),
                    (comm, request, ierr)) {
  traced_nonblocking_collective(
      Op::Ibarrier,
      [&] {
        pmpi_ibarrier_(comm, request, ierr);
        return fortran_result(ierr);
      },
      [&] { return CollectiveArgs{.comm = c_comm(comm)}; }, [&] { return c_request(request); });
}

P3S_FORTRAN_WRAPPER(ibcast, IBCAST,
                    (void* buffer, MPI_Fint* count, MPI_Fint* type, MPI_Fint* root, MPI_Fint* comm,
                     MPI_Fint* request, MPI_Fint* ierr),
                    (buffer, count, type, root, comm, request, ierr)) {
  traced_nonblocking_collective(
      Op::Ibcast,
      [&] {
        pmpi_ibcast_(buffer, count, type, root, comm, request, ierr);
        return fortran_result(ierr);
      },
      [&] {
        return CollectiveArgs{
            .comm = c_comm(comm), .root = *root, .count = *count, .type = c_type(type)};
      },
      [&] { return c_request(request); });
}

P3S_FORTRAN_WRAPPER(ireduce, IREDUCE,
                    (void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* op,
                     MPI_Fint* root, MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr),
                    (sendbuf, recvbuf, count, type, op, root, comm, request, ierr)) {
  traced_nonblocking_collective(
      Op::Ireduce,
      [&] {
        pmpi_ireduce_(sendbuf, recvbuf, count, type, op, root, comm, request, ierr);
        return fortran_result(ierr);
      },
      [&] {
        return CollectiveArgs{
            .comm = c_comm(comm), .root = *root, .count = *count, .type = c_type(type)};
      },
      [&] { return c_request(request); });
}

P3S_FORTRAN_WRAPPER(iallreduce, IALLREDUCE,
                    (void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* op,
                     MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr),
                    (sendbuf, recvbuf, count, type, op, comm, request, ierr)) {
  traced_nonblocking_collective(
      Op::Iallreduce,
      [&] {
        pmpi_iallreduce_(sendbuf, recvbuf, count, type, op, comm, request, ierr);
        return fortran_result(ierr);
      },
      [&] { return CollectiveArgs{.comm = c_comm(comm), .count = *count, .type = c_type(type)}; },
      [&] { return c_request(request); });
}

P3S_FORTRAN_WRAPPER(igather, IGATHER,
                    (void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, void* recvbuf,
                     MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm,
                     MPI_Fint* request, MPI_Fint* ierr),
                    (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                     request, ierr)) {
  traced_nonblocking_collective(
      Op::Igather,
      [&] {
        pmpi_igather_(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                      request, ierr);
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
      },
      [&] { return c_request(request); });
}

P3S_FORTRAN_WRAPPER(igatherv, IGATHERV,
                    (void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, void* recvbuf,
                     MPI_Fint* recvcounts, MPI_Fint* displs, MPI_Fint* recvtype, MPI_Fint* root,
                     MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr),
                    (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                     comm, request, ierr)) {
  traced_nonblocking_collective(
      Op::Igatherv,
      [&] {
        pmpi_igatherv_(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                       comm, request, ierr);
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
      },
      [&] { return c_request(request); });
}

P3S_FORTRAN_WRAPPER(iscatter, ISCATTER,
                    (void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, void* recvbuf,
                     MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm,
                     MPI_Fint* request, MPI_Fint* ierr),
                    (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                     request, ierr)) {
  traced_nonblocking_collective(
      Op::Iscatter,
      [&] {
        pmpi_iscatter_(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                       request, ierr);
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
      },
      [&] { return c_request(request); });
}

P3S_FORTRAN_WRAPPER(iscatterv, ISCATTERV,
                    (void* sendbuf, MPI_Fint* sendcounts, MPI_Fint* displs, MPI_Fint* sendtype,
                     void* recvbuf, MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* root,
                     MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr),
                    (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                     comm, request, ierr)) {
  traced_nonblocking_collective(
      Op::Iscatterv,
      [&] {
        pmpi_iscatterv_(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                        comm, request, ierr);
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
      },
      [&] { return c_request(request); });
}

P3S_FORTRAN_WRAPPER(iallgather, IALLGATHER,
                    (void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, void* recvbuf,
                     MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* request,
                     MPI_Fint* ierr),
                    (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                     ierr)) {
  traced_nonblocking_collective(
      Op::Iallgather,
      [&] {
        pmpi_iallgather_(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                         ierr);
        return fortran_result(ierr);
      },
      [&] {
        return CollectiveArgs{.comm = c_comm(comm),
                              .send_in_place = is_fortran_in_place(sendbuf),
                              .sendcount = *sendcount,
                              .sendtype = c_type(sendtype),
                              .recvcount = *recvcount,
                              .recvtype = c_type(recvtype)};
      },
      [&] { return c_request(request); });
}

P3S_FORTRAN_WRAPPER(iallgatherv, IALLGATHERV,
                    (void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, void* recvbuf,
                     MPI_Fint* recvcounts, MPI_Fint* displs, MPI_Fint* recvtype, MPI_Fint* comm,
                     MPI_Fint* request, MPI_Fint* ierr),
                    (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                     request, ierr)) {
  traced_nonblocking_collective(
      Op::Iallgatherv,
      [&] {
        pmpi_iallgatherv_(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                          request, ierr);
        return fortran_result(ierr);
      },
      [&] {
        return CollectiveArgs{.comm = c_comm(comm),
                              .send_in_place = is_fortran_in_place(sendbuf),
                              .sendcount = *sendcount,
                              .sendtype = c_type(sendtype),
                              .recvcounts = recvcounts,
                              .recvtype = c_type(recvtype)};
      },
      [&] { return c_request(request); });
}

P3S_FORTRAN_WRAPPER(ialltoall, IALLTOALL,
                    (void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, void* recvbuf,
                     MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* request,
                     MPI_Fint* ierr),
                    (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                     ierr)) {
  traced_nonblocking_collective(
      Op::Ialltoall,
      [&] {
        pmpi_ialltoall_(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                        ierr);
        return fortran_result(ierr);
      },
      [&] {
        return CollectiveArgs{.comm = c_comm(comm),
                              .send_in_place = is_fortran_in_place(sendbuf),
                              .sendcount = *sendcount,
                              .sendtype = c_type(sendtype),
                              .recvcount = *recvcount,
                              .recvtype = c_type(recvtype)};
      },
      [&] { return c_request(request); });
}

P3S_FORTRAN_WRAPPER(ialltoallv, IALLTOALLV,
                    (void* sendbuf, MPI_Fint* sendcounts, MPI_Fint* sdispls, MPI_Fint* sendtype,
                     void* recvbuf, MPI_Fint* recvcounts, MPI_Fint* rdispls, MPI_Fint* recvtype,
                     MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr),
                    (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                     comm, request, ierr)) {
  traced_nonblocking_collective(
      Op::Ialltoallv,
      [&] {
        pmpi_ialltoallv_(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                         recvtype, comm, request, ierr);
        return fortran_result(ierr);
      },
      [&] {
        return CollectiveArgs{.comm = c_comm(comm),
                              .send_in_place = is_fortran_in_place(sendbuf),
                              .sendcounts = sendcounts,
                              .sendtype = c_type(sendtype),
                              .recvcounts = recvcounts,
                              .recvtype = c_type(recvtype)};
      },
      [&] { return c_request(request); });
}

P3S_FORTRAN_WRAPPER(ialltoallw, IALLTOALLW,
                    (void* sendbuf, MPI_Fint* sendcounts, MPI_Fint* sdispls, MPI_Fint* sendtypes,
                     void* recvbuf, MPI_Fint* recvcounts, MPI_Fint* rdispls, MPI_Fint* recvtypes,
                     MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr),
                    (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                     recvtypes, comm, request, ierr)) {
  // The C datatypes of the per-peer type arrays, kept alive until the call is recorded.
  std::vector<MPI_Datatype> c_sendtypes;
  std::vector<MPI_Datatype> c_recvtypes;
  traced_nonblocking_collective(
      Op::Ialltoallw,
      [&] {
        pmpi_ialltoallw_(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                         recvtypes, comm, request, ierr);
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
      },
      [&] { return c_request(request); });
}

P3S_FORTRAN_WRAPPER(ireduce_scatter, IREDUCE_SCATTER,
                    (void* sendbuf, void* recvbuf, MPI_Fint* recvcounts, MPI_Fint* type,
                     MPI_Fint* op, MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr),
                    (sendbuf, recvbuf, recvcounts, type, op, comm, request, ierr)) {
  traced_nonblocking_collective(
      Op::IreduceScatter,
      [&] {
        pmpi_ireduce_scatter_(sendbuf, recvbuf, recvcounts, type, op, comm, request, ierr);
        return fortran_result(ierr);
      },
      [&] {
        return CollectiveArgs{.comm = c_comm(comm), .type = c_type(type), .recvcounts = recvcounts};
      },
      [&] { return c_request(request); });
}

P3S_FORTRAN_WRAPPER(ireduce_scatter_block, IREDUCE_SCATTER_BLOCK,
                    (void* sendbuf, void* recvbuf, MPI_Fint* recvcount, MPI_Fint* type,
                     MPI_Fint* op, MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr),
                    (sendbuf, recvbuf, recvcount, type, op, comm, request, ierr)) {
  traced_nonblocking_collective(
      Op::IreduceScatterBlock,
      [&] {
        pmpi_ireduce_scatter_block_(sendbuf, recvbuf, recvcount, type, op, comm, request, ierr);
        return fortran_result(ierr);
      },
      [&] {
        return CollectiveArgs{.comm = c_comm(comm), .count = *recvcount, .type = c_type(type)};
      },
      [&] { return c_request(request); });
}

P3S_FORTRAN_WRAPPER(iscan, ISCAN,
                    (void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* op,
                     MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr),
                    (sendbuf, recvbuf, count, type, op, comm, request, ierr)) {
  traced_nonblocking_collective(
      Op::Iscan,
      [&] {
        pmpi_iscan_(sendbuf, recvbuf, count, type, op, comm, request, ierr);
        return fortran_result(ierr);
      },
      [&] { return CollectiveArgs{.comm = c_comm(comm), .count = *count, .type = c_type(type)}; },
      [&] { return c_request(request); });
}

P3S_FORTRAN_WRAPPER(iexscan, IEXSCAN,
                    (void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* op,
                     MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr),
                    (sendbuf, recvbuf, count, type, op, comm, request, ierr)) {
  traced_nonblocking_collective(
      Op::Iexscan,
      [&] {
        pmpi_iexscan_(sendbuf, recvbuf, count, type, op, comm, request, ierr);
        return fortran_result(ierr);
      },
      [&] { return CollectiveArgs{.comm = c_comm(comm), .count = *count, .type = c_type(type)}; },
      [&] { return c_request(request); });
}
