#pragma once
// The operation table: one row per MPI operation p3s records. Everything that is said once per
// operation comes from here (X-macros: each list calls X once per row, in Op order):
//   core/op.*            the Op enum, its trace-format names, kinds and flags;
//   trace/wrapped_*.cpp  the C and Fortran wrappers of the uniform families (their parameter
//                        lists, the PMPI call, what is recorded), blocking and non-blocking;
//   trace/collectives.cpp which byte rule counts a collective;
//   ti/ti_export.cpp, ti/ti_rank_converter.cpp  a collective's SimGrid TI action name.
//
// Columns:
//   Enum   the Op value; IEnum (collectives) the Op of the non-blocking form, which the same row
//          generates.
//   lower  the MPI function in lower case, without MPI_: the trace-format name (#lower, and
//          "i" #lower for a non-blocking collective) and the Fortran symbols (mpi_##lower##_).
//   CName  the C function without MPI_ (MPI_##CName, PMPI_##CName; MPI_I##lower for an I form).
//   UPPER  the upper-case Fortran symbol without MPI_ (MPI_##UPPER).
//   params the parameters as (KIND, name) pairs, in the MPI order; the kinds
//          (trace/wrapper_args.hpp) give the C type, the Fortran type (a pointer; the ierror
//          argument is added) and the value the recording sees, the same C value in both.
//   record (point-to-point, persistent) the statement that records the call, over the
//          parameters' values and `call`; the functions are trace/point_to_point.hpp's and
//          trace/persistent.hpp's.
//   rooted whether a collective has a root argument.
//   bytes  (collectives) the byte rule of trace/collectives.cpp (bytes_<rule>) and so which of
//          the CollectiveArgs below it reads, and which side's bytes are one block per member
//          of the communicator (core/op.cpp, kPerMember_<rule>: a new rule needs its line).
//   ti     (collectives) the SimGrid TI action (SimGrid 3.32's smpi_replay.cpp), "" for none.
//          The export writes it for both forms (a non-blocking collective replays as blocking);
//          the import reads ti and "i" ti.
//   args   (collectives) the CollectiveArgs (trace/collectives.hpp) the call describes.
//
// The byte rules, argument meanings and the trace format are documented in
// trace/collectives.hpp and core/FORMATS.md; a new row needs its line in FORMATS.md.

// clang-format off

// X(Enum, lower, CName, UPPER, nonblocking, params, record)
#define P3S_POINT_TO_POINT_OPS(X)                                                                  \
  X(Send, send, Send, SEND, false,                                                                 \
    ((SBUF, buf), (INT, count), (TYPE, type), (INT, dest), (INT, tag), (COMM, comm)),              \
    (record_send(call, count, type, dest, tag, comm)))                                             \
  X(Ssend, ssend, Ssend, SSEND, false,                                                             \
    ((SBUF, buf), (INT, count), (TYPE, type), (INT, dest), (INT, tag), (COMM, comm)),              \
    (record_send(call, count, type, dest, tag, comm)))                                             \
  X(Bsend, bsend, Bsend, BSEND, false,                                                             \
    ((SBUF, buf), (INT, count), (TYPE, type), (INT, dest), (INT, tag), (COMM, comm)),              \
    (record_send(call, count, type, dest, tag, comm)))                                             \
  X(Rsend, rsend, Rsend, RSEND, false,                                                             \
    ((SBUF, buf), (INT, count), (TYPE, type), (INT, dest), (INT, tag), (COMM, comm)),              \
    (record_send(call, count, type, dest, tag, comm)))                                             \
  X(Isend, isend, Isend, ISEND, true,                                                              \
    ((SBUF, buf), (INT, count), (TYPE, type), (INT, dest), (INT, tag), (COMM, comm),               \
     (REQUEST, request)),                                                                          \
    (record_posted_send(call, count, type, dest, tag, comm, request, false)))                      \
  X(Issend, issend, Issend, ISSEND, true,                                                          \
    ((SBUF, buf), (INT, count), (TYPE, type), (INT, dest), (INT, tag), (COMM, comm),               \
     (REQUEST, request)),                                                                          \
    (record_posted_send(call, count, type, dest, tag, comm, request, false)))                      \
  X(Irecv, irecv, Irecv, IRECV, true,                                                              \
    ((RBUF, buf), (INT, count), (TYPE, type), (INT, source), (INT, tag), (COMM, comm),             \
     (REQUEST, request)),                                                                          \
    (record_posted_receive(call, count, type, source, tag, comm, request, false)))                 \
  X(Recv, recv, Recv, RECV, false,                                                                 \
    ((RBUF, buf), (INT, count), (TYPE, type), (INT, source), (INT, tag), (COMM, comm),             \
     (STATUS, status)),                                                                            \
    (record_recv(call, source, tag, comm, status)))                                                \
  X(Sendrecv, sendrecv, Sendrecv, SENDRECV, false,                                                 \
    ((SBUF, sendbuf), (INT, sendcount), (TYPE, sendtype), (INT, dest), (INT, sendtag),             \
     (RBUF, recvbuf), (INT, recvcount), (TYPE, recvtype), (INT, source), (INT, recvtag),           \
     (COMM, comm), (STATUS, status)),                                                              \
    (record_sendrecv(call, sendcount, sendtype, dest, sendtag, source, recvtag, comm, status)))    \
  X(SendrecvReplace, sendrecv_replace, Sendrecv_replace, SENDRECV_REPLACE, false,                  \
    ((RBUF, buf), (INT, count), (TYPE, type), (INT, dest), (INT, sendtag), (INT, source),          \
     (INT, recvtag), (COMM, comm), (STATUS, status)),                                              \
    (record_sendrecv(call, count, type, dest, sendtag, source, recvtag, comm, status)))            \
  X(Probe, probe, Probe, PROBE, false,                                                             \
    ((INT, source), (INT, tag), (COMM, comm), (STATUS, status)),                                   \
    (record_probe(call, source, tag, comm, true, status)))                                         \
  X(Iprobe, iprobe, Iprobe, IPROBE, false,                                                         \
    ((INT, source), (INT, tag), (COMM, comm), (FLAG, flag), (STATUS, status)),                     \
    (record_probe(call, source, tag, comm, flag != 0, status)))

// X(Enum, lower): completions are hand-written (trace/c_completion.cpp, fortran_completion.cpp):
// request handles copied before the call and status arrays differ per call.
#define P3S_COMPLETION_OPS(X)                                                                      \
  X(Wait, wait) X(Waitall, waitall) X(Waitany, waitany) X(Waitsome, waitsome)                      \
  X(Test, test) X(Testall, testall) X(Testany, testany) X(Testsome, testsome)

// X(Enum, lower, CName, UPPER, nonblocking, params, record)
#define P3S_PERSISTENT_OPS(X)                                                                      \
  X(SendInit, send_init, Send_init, SEND_INIT, false,                                              \
    ((SBUF, buf), (INT, count), (TYPE, type), (INT, dest), (INT, tag), (COMM, comm),               \
     (REQUEST, request)),                                                                          \
    (record_posted_send(call, count, type, dest, tag, comm, request, true)))                       \
  X(RecvInit, recv_init, Recv_init, RECV_INIT, false,                                              \
    ((RBUF, buf), (INT, count), (TYPE, type), (INT, source), (INT, tag), (COMM, comm),             \
     (REQUEST, request)),                                                                          \
    (record_posted_receive(call, count, type, source, tag, comm, request, true)))                  \
  X(Start, start, Start, START, true,                                                              \
    ((REQUEST, request)),                                                                          \
    (record_start(call, request)))                                                                 \
  X(Startall, startall, Startall, STARTALL, true,                                                  \
    ((INT, count), (REQUESTS, requests)),                                                          \
    (for (int i = 0; i < count; ++i) record_started(call, requests[i])))

// X(Enum, IEnum, lower, CName, UPPER, rooted, bytes, ti, params, args): each row is a blocking
// collective and, with a request added, its non-blocking form.
#define P3S_COLLECTIVE_OPS(X)                                                                      \
  X(Barrier, Ibarrier, barrier, Barrier, BARRIER, false, none, "barrier",                          \
    ((COMM, comm)),                                                                                \
    (.comm = comm))                                                                                \
  X(Bcast, Ibcast, bcast, Bcast, BCAST, true, buffer, "bcast",                                     \
    ((RBUF, buffer), (INT, count), (TYPE, type), (INT, root), (COMM, comm)),                       \
    (.comm = comm, .root = root, .count = count, .type = type))                                    \
  X(Reduce, Ireduce, reduce, Reduce, REDUCE, true, buffer, "reduce",                               \
    ((SBUF, sendbuf), (RBUF, recvbuf), (INT, count), (TYPE, type), (OP, op), (INT, root),          \
     (COMM, comm)),                                                                                \
    (.comm = comm, .root = root, .count = count, .type = type))                                    \
  X(Allreduce, Iallreduce, allreduce, Allreduce, ALLREDUCE, false, buffer, "allreduce",            \
    ((SBUF, sendbuf), (RBUF, recvbuf), (INT, count), (TYPE, type), (OP, op), (COMM, comm)),        \
    (.comm = comm, .count = count, .type = type))                                                  \
  X(Gather, Igather, gather, Gather, GATHER, true, gather, "gather",                               \
    ((SBUF, sendbuf), (INT, sendcount), (TYPE, sendtype), (RBUF, recvbuf), (INT, recvcount),       \
     (TYPE, recvtype), (INT, root), (COMM, comm)),                                                 \
    (.comm = comm, .root = root, .send_in_place = sendbuf.in_place, .sendcount = sendcount,        \
     .sendtype = sendtype, .recvcount = recvcount, .recvtype = recvtype))                          \
  X(Gatherv, Igatherv, gatherv, Gatherv, GATHERV, true, gatherv, "gatherv",                        \
    ((SBUF, sendbuf), (INT, sendcount), (TYPE, sendtype), (RBUF, recvbuf), (INTS, recvcounts),     \
     (INTS, displs), (TYPE, recvtype), (INT, root), (COMM, comm)),                                 \
    (.comm = comm, .root = root, .send_in_place = sendbuf.in_place, .sendcount = sendcount,        \
     .sendtype = sendtype, .recvcounts = recvcounts, .recvtype = recvtype))                        \
  X(Scatter, Iscatter, scatter, Scatter, SCATTER, true, scatter, "scatter",                        \
    ((SBUF, sendbuf), (INT, sendcount), (TYPE, sendtype), (RBUF, recvbuf), (INT, recvcount),       \
     (TYPE, recvtype), (INT, root), (COMM, comm)),                                                 \
    (.comm = comm, .root = root, .recv_in_place = recvbuf.in_place, .sendcount = sendcount,        \
     .sendtype = sendtype, .recvcount = recvcount, .recvtype = recvtype))                          \
  X(Scatterv, Iscatterv, scatterv, Scatterv, SCATTERV, true, scatterv, "scatterv",                 \
    ((SBUF, sendbuf), (INTS, sendcounts), (INTS, displs), (TYPE, sendtype), (RBUF, recvbuf),       \
     (INT, recvcount), (TYPE, recvtype), (INT, root), (COMM, comm)),                               \
    (.comm = comm, .root = root, .recv_in_place = recvbuf.in_place, .sendcounts = sendcounts,      \
     .sendtype = sendtype, .recvcount = recvcount, .recvtype = recvtype))                          \
  X(Allgather, Iallgather, allgather, Allgather, ALLGATHER, false, allgather, "allgather",         \
    ((SBUF, sendbuf), (INT, sendcount), (TYPE, sendtype), (RBUF, recvbuf), (INT, recvcount),       \
     (TYPE, recvtype), (COMM, comm)),                                                              \
    (.comm = comm, .send_in_place = sendbuf.in_place, .sendcount = sendcount,                      \
     .sendtype = sendtype, .recvcount = recvcount, .recvtype = recvtype))                          \
  X(Allgatherv, Iallgatherv, allgatherv, Allgatherv, ALLGATHERV, false, allgatherv, "allgatherv",  \
    ((SBUF, sendbuf), (INT, sendcount), (TYPE, sendtype), (RBUF, recvbuf), (INTS, recvcounts),     \
     (INTS, displs), (TYPE, recvtype), (COMM, comm)),                                              \
    (.comm = comm, .send_in_place = sendbuf.in_place, .sendcount = sendcount,                      \
     .sendtype = sendtype, .recvcounts = recvcounts, .recvtype = recvtype))                        \
  X(Alltoall, Ialltoall, alltoall, Alltoall, ALLTOALL, false, alltoall, "alltoall",                \
    ((SBUF, sendbuf), (INT, sendcount), (TYPE, sendtype), (RBUF, recvbuf), (INT, recvcount),       \
     (TYPE, recvtype), (COMM, comm)),                                                              \
    (.comm = comm, .send_in_place = sendbuf.in_place, .sendcount = sendcount,                      \
     .sendtype = sendtype, .recvcount = recvcount, .recvtype = recvtype))                          \
  X(Alltoallv, Ialltoallv, alltoallv, Alltoallv, ALLTOALLV, false, alltoallv, "alltoallv",         \
    ((SBUF, sendbuf), (INTS, sendcounts), (INTS, sdispls), (TYPE, sendtype), (RBUF, recvbuf),      \
     (INTS, recvcounts), (INTS, rdispls), (TYPE, recvtype), (COMM, comm)),                         \
    (.comm = comm, .send_in_place = sendbuf.in_place, .sendcounts = sendcounts,                    \
     .sendtype = sendtype, .recvcounts = recvcounts, .recvtype = recvtype))                        \
  X(Alltoallw, Ialltoallw, alltoallw, Alltoallw, ALLTOALLW, false, alltoallw, "",                  \
    ((SBUF, sendbuf), (INTS, sendcounts), (INTS, sdispls), (TYPES, sendtypes), (RBUF, recvbuf),    \
     (INTS, recvcounts), (INTS, rdispls), (TYPES, recvtypes), (COMM, comm)),                       \
    (.comm = comm, .send_in_place = sendbuf.in_place, .sendcounts = sendcounts,                    \
     .sendtypes = sendtypes, .recvcounts = recvcounts, .recvtypes = recvtypes))                    \
  X(ReduceScatter, IreduceScatter, reduce_scatter, Reduce_scatter, REDUCE_SCATTER, false,          \
    reduce_scatter, "reducescatter",                                                               \
    ((SBUF, sendbuf), (RBUF, recvbuf), (INTS, recvcounts), (TYPE, type), (OP, op),                 \
     (COMM, comm)),                                                                                \
    (.comm = comm, .type = type, .recvcounts = recvcounts))                                        \
  X(ReduceScatterBlock, IreduceScatterBlock, reduce_scatter_block, Reduce_scatter_block,           \
    REDUCE_SCATTER_BLOCK, false, reduce_scatter_block, "reducescatter",                            \
    ((SBUF, sendbuf), (RBUF, recvbuf), (INT, recvcount), (TYPE, type), (OP, op),                   \
     (COMM, comm)),                                                                                \
    (.comm = comm, .count = recvcount, .type = type))                                              \
  X(Scan, Iscan, scan, Scan, SCAN, false, buffer, "scan",                                          \
    ((SBUF, sendbuf), (RBUF, recvbuf), (INT, count), (TYPE, type), (OP, op), (COMM, comm)),        \
    (.comm = comm, .count = count, .type = type))                                                  \
  X(Exscan, Iexscan, exscan, Exscan, EXSCAN, false, buffer, "exscan",                              \
    ((SBUF, sendbuf), (RBUF, recvbuf), (INT, count), (TYPE, type), (OP, op), (COMM, comm)),        \
    (.comm = comm, .count = count, .type = type))

// X(Enum, lower): communicator and topology creation, hand-written (trace/c_communicators.cpp,
// fortran_communicators.cpp): each returns a new handle the tracer must learn.
#define P3S_COMM_CREATE_OPS(X)                                                                     \
  X(CommSplit, comm_split) X(CommDup, comm_dup) X(CommCreate, comm_create)                         \
  X(CartCreate, cart_create) X(CartSub, cart_sub) X(DistGraphCreate, dist_graph_create)

// X(Enum, lower): the program's end, hand-written with MPI_Init and MPI_Abort
// (trace/c_lifecycle.cpp, fortran_lifecycle.cpp). It stays the last Op.
#define P3S_FINALIZE_OPS(X) X(Finalize, finalize)

// clang-format on
