! app_every_call_f: the Fortran twin of app_every_call (every_call.c). It calls every MPI
! routine the p3s tracer wraps for Fortran (mpi_send_ and friends, through `use mpi`) at least
! once, and writes its own record of each call, independently of the tracer.
!
! usage: app_every_call_f RECORD_DIR [abort]   (n even, 2..64)
!
! The record (RECORD_DIR/record-RRRRR.txt) has the format every_call.c describes: one line
! `OP DST BYTES SRC RBYTES ROOT COMM NEW` per call the trace format writes as an event (world
! ranks, -1 none or MPI_PROC_NULL, -2 MPI_ANY_SOURCE; bytes = count x type size, the sizes
! written out here: INTEGER 4, DOUBLE PRECISION 8, INTEGER*2 2, INTEGER*8 8; COMM and NEW the
! communicator used and made, as member lists, or `*`), then `= s|r PEER BYTES` per request a
! completion or MPI_STARTALL acted on. Even ranks call MPI_INIT, odd ranks
! MPI_INIT_THREAD; with `abort`, rank 0 calls MPI_ABORT after one MPI_BARRIER.
module every_call_record
  use mpi
  implicit none
  integer, parameter :: i8 = selected_int_kind(18)
  integer, parameter :: kint = 4, kdouble = 8, kshort = 2, klong = 8
  integer, parameter :: unit_record = 42
  integer :: me = 0, nprocs = 1, failures = 0
  ! The communicator the calls being recorded run on.
  integer :: current = MPI_COMM_WORLD

contains

  ! The members of `comm` as world ranks (`0,1,2`), or `null`.
  function members(comm) result(text)
    integer, intent(in) :: comm
    character(len=:), allocatable :: text
    integer :: size, ierr, i, group, world, ranks(64), world_ranks(64)
    character(len=12) :: one
    if (comm == MPI_COMM_NULL) then
      text = 'null'
      return
    end if
    call MPI_COMM_SIZE(comm, size, ierr)
    ranks(1:size) = [(i, i = 0, size - 1)]
    call MPI_COMM_GROUP(comm, group, ierr)
    call MPI_COMM_GROUP(MPI_COMM_WORLD, world, ierr)
    call MPI_GROUP_TRANSLATE_RANKS(group, size, ranks, world, world_ranks, ierr)
    call MPI_GROUP_FREE(group, ierr)
    call MPI_GROUP_FREE(world, ierr)
    text = ''
    do i = 1, size
      write (one, '(i0)') world_ranks(i)
      if (i > 1) text = text // ','
      text = text // trim(one)
    end do
  end function members

  subroutine fields(op, dst, bytes, src, rbytes, root, comm, made)
    character(len=*), intent(in) :: op, comm, made
    integer, intent(in) :: dst, src, root
    integer(i8), intent(in) :: bytes, rbytes
    write (unit_record, '(a, 1x, i0, 1x, i0, 1x, i0, 1x, i0, 1x, i0, 1x, a, 1x, a)') op, dst, &
        bytes, src, rbytes, root, comm, made
  end subroutine fields

  ! A call on the current communicator.
  subroutine rec(op, dst, bytes, src, rbytes, root)
    character(len=*), intent(in) :: op
    integer, intent(in) :: dst, src, root
    integer(i8), intent(in) :: bytes, rbytes
    call fields(op, dst, bytes, src, rbytes, root, members(current), '*')
  end subroutine rec

  ! A call on requests (completion, MPI_STARTALL) or MPI_FINALIZE.
  subroutine event(op)
    character(len=*), intent(in) :: op
    call fields(op, -1, 0_i8, -1, 0_i8, -1, '*', '*')
  end subroutine event

  ! MPI_START: its request's message, no communicator.
  subroutine started(op, dst, bytes, src, rbytes)
    character(len=*), intent(in) :: op
    integer, intent(in) :: dst, src
    integer(i8), intent(in) :: bytes, rbytes
    call fields(op, dst, bytes, src, rbytes, -1, '*', '*')
  end subroutine started

  ! A communicator creation on `parent` that made `made`.
  subroutine created(op, parent, made)
    character(len=*), intent(in) :: op
    integer, intent(in) :: parent, made
    call fields(op, -1, 0_i8, -1, 0_i8, -1, members(parent), members(made))
  end subroutine created

  subroutine done(kind, peer, bytes)
    character(len=1), intent(in) :: kind
    integer, intent(in) :: peer
    integer(i8), intent(in) :: bytes
    write (unit_record, '(a, 1x, a, 1x, i0, 1x, i0)') '=', kind, peer, bytes
  end subroutine done

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      write (*, '(a, i0, 2a)') 'rank ', me, ': wrong data after ', what
      failures = failures + 1
    end if
  end subroutine check

  ! The MPI_COMM_WORLD rank of rank `rank` of `group`, which it frees.
  integer function world_rank_in(group, rank)
    integer, intent(inout) :: group
    integer, intent(in) :: rank
    integer :: world, ierr, ranks(1), out(1)
    call MPI_COMM_GROUP(MPI_COMM_WORLD, world, ierr)
    ranks(1) = rank
    call MPI_GROUP_TRANSLATE_RANKS(group, 1, ranks, world, out, ierr)
    call MPI_GROUP_FREE(group, ierr)
    call MPI_GROUP_FREE(world, ierr)
    world_rank_in = out(1)
  end function world_rank_in

  ! The MPI_COMM_WORLD rank of `rank` in `comm`.
  integer function world_rank(comm, rank)
    integer, intent(in) :: comm, rank
    integer :: group, ierr
    call MPI_COMM_GROUP(comm, group, ierr)
    world_rank = world_rank_in(group, rank)
  end function world_rank

  ! The MPI_COMM_WORLD rank of rank `rank` of an intercommunicator's remote group.
  integer function remote_world_rank(inter, rank)
    integer, intent(in) :: inter, rank
    integer :: group, ierr
    call MPI_COMM_REMOTE_GROUP(inter, group, ierr)
    remote_world_rank = world_rank_in(group, rank)
  end function remote_world_rank

  integer(i8) function b(count, size)
    integer, intent(in) :: count, size
    b = int(count, i8) * int(size, i8)
  end function b

end module every_call_record

module every_call_sections
  use every_call_record
  implicit none

contains

  ! Blocking sends and receives between partners r and r ^ 1, MPI_PROC_NULL and zero counts.
  subroutine blocking_point_to_point()
    integer :: partner, ierr, i, vector, request, bsize, status(MPI_STATUS_SIZE)
    integer :: ints(20), strided(24)
    double precision :: doubles(5)
    character(len=1), allocatable :: buffer(:)
    logical :: even
    partner = ieor(me, 1)
    even = mod(me, 2) == 0

    ints = me * 100
    if (even) then
      call MPI_SEND(ints, 10, MPI_INTEGER, partner, 1, MPI_COMM_WORLD, ierr)
      call rec('send', partner, b(10, kint), -1, 0_i8, -1)
      call MPI_RECV(ints, 20, MPI_INTEGER, partner, 1, MPI_COMM_WORLD, status, ierr)
      call rec('recv', -1, 0_i8, partner, b(10, kint), -1)
    else
      call MPI_RECV(ints, 20, MPI_INTEGER, partner, 1, MPI_COMM_WORLD, status, ierr)
      call rec('recv', -1, 0_i8, partner, b(10, kint), -1)
      call check(ints(10) == partner * 100, 'MPI_RECV')
      ints = me * 100
      call MPI_SEND(ints, 10, MPI_INTEGER, partner, 1, MPI_COMM_WORLD, ierr)
      call rec('send', partner, b(10, kint), -1, 0_i8, -1)
    end if

    ! 2 x vector(3 blocks of 2 integers, stride 4) = 12 integers = 48 bytes.
    call MPI_TYPE_VECTOR(3, 2, 4, MPI_INTEGER, vector, ierr)
    call MPI_TYPE_COMMIT(vector, ierr)
    strided = [(me * 1000 + i, i = 0, 23)]
    if (even) then
      call MPI_SSEND(strided, 2, vector, partner, 2, MPI_COMM_WORLD, ierr)
      call rec('ssend', partner, b(12, kint), -1, 0_i8, -1)
      call MPI_RECV(ints, 12, MPI_INTEGER, partner, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call rec('recv', -1, 0_i8, partner, b(12, kint), -1)
    else
      call MPI_RECV(ints, 12, MPI_INTEGER, partner, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call rec('recv', -1, 0_i8, partner, b(12, kint), -1)
      call check(ints(3) == partner * 1000 + 4, 'MPI_SSEND of a vector type')
      call MPI_SSEND(strided, 2, vector, partner, 2, MPI_COMM_WORLD, ierr)
      call rec('ssend', partner, b(12, kint), -1, 0_i8, -1)
    end if
    call MPI_TYPE_FREE(vector, ierr)

    bsize = 5 * kdouble + MPI_BSEND_OVERHEAD
    allocate (buffer(bsize))
    call MPI_BUFFER_ATTACH(buffer, bsize, ierr)
    doubles = me
    call MPI_BSEND(doubles, 5, MPI_DOUBLE_PRECISION, partner, 3, MPI_COMM_WORLD, ierr)
    call rec('bsend', partner, b(5, kdouble), -1, 0_i8, -1)
    call MPI_RECV(doubles, 5, MPI_DOUBLE_PRECISION, partner, 3, MPI_COMM_WORLD, &
        MPI_STATUS_IGNORE, ierr)
    call rec('recv', -1, 0_i8, partner, b(5, kdouble), -1)
    call check(doubles(5) == partner, 'MPI_BSEND')
    call MPI_BUFFER_DETACH(buffer, bsize, ierr)
    deallocate (buffer)

    ! MPI_RSEND: the odd rank posts its receive, then a zero-byte MPI_SENDRECV says so.
    if (even) then
      call MPI_SENDRECV(ints, 0, MPI_INTEGER, partner, 4, ints, 0, MPI_INTEGER, partner, 4, &
          MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call rec('sendrecv', partner, 0_i8, partner, 0_i8, -1)
      ints(1) = me
      call MPI_RSEND(ints, 1, MPI_INTEGER, partner, 5, MPI_COMM_WORLD, ierr)
      call rec('rsend', partner, b(1, kint), -1, 0_i8, -1)
    else
      call MPI_IRECV(ints, 1, MPI_INTEGER, partner, 5, MPI_COMM_WORLD, request, ierr)
      call rec('irecv', -1, 0_i8, partner, b(1, kint), -1)
      call MPI_SENDRECV(ints(2), 0, MPI_INTEGER, partner, 4, ints(3), 0, MPI_INTEGER, partner, &
          4, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call rec('sendrecv', partner, 0_i8, partner, 0_i8, -1)
      call MPI_WAIT(request, MPI_STATUS_IGNORE, ierr)
      call event('wait')
      call done('r', partner, b(1, kint))
      call check(ints(1) == partner, 'MPI_RSEND')
    end if

    call MPI_SEND(ints, 0, MPI_INTEGER, partner, 6, MPI_COMM_WORLD, ierr)
    call rec('send', partner, 0_i8, -1, 0_i8, -1)
    call MPI_RECV(ints, 0, MPI_INTEGER, partner, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call rec('recv', -1, 0_i8, partner, 0_i8, -1)
    call MPI_SEND(ints, 10, MPI_INTEGER, MPI_PROC_NULL, 7, MPI_COMM_WORLD, ierr)
    call rec('send', -1, 0_i8, -1, 0_i8, -1)
    call MPI_RECV(ints, 10, MPI_INTEGER, MPI_PROC_NULL, 7, MPI_COMM_WORLD, status, ierr)
    call rec('recv', -1, 0_i8, -1, 0_i8, -1)
  end subroutine blocking_point_to_point

  ! MPI_SENDRECV(_REPLACE) round the ring, MPI_PROC_NULL on either side, and the probes.
  subroutine exchanges_and_probes()
    integer :: right, left, ierr, status(MPI_STATUS_SIZE), ints(8)
    double precision :: out(3), in(4)
    integer(i8) :: value(2)
    logical :: flag
    right = mod(me + 1, nprocs)
    left = mod(me + nprocs - 1, nprocs)
    out = me
    in = 0

    call MPI_SENDRECV(out, 3, MPI_DOUBLE_PRECISION, right, 10, in, 4, MPI_DOUBLE_PRECISION, &
        left, 10, MPI_COMM_WORLD, status, ierr)
    call rec('sendrecv', right, b(3, kdouble), left, b(3, kdouble), -1)
    call check(in(3) == left, 'MPI_SENDRECV')
    call MPI_SENDRECV(out, 2, MPI_DOUBLE_PRECISION, right, 11, in, 4, MPI_DOUBLE_PRECISION, &
        MPI_PROC_NULL, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call rec('sendrecv', right, b(2, kdouble), -1, 0_i8, -1)
    call MPI_SENDRECV(out, 3, MPI_DOUBLE_PRECISION, MPI_PROC_NULL, 11, in, 4, &
        MPI_DOUBLE_PRECISION, left, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call rec('sendrecv', -1, 0_i8, left, b(2, kdouble), -1)

    value = me
    call MPI_SENDRECV_REPLACE(value, 2, MPI_INTEGER8, right, 12, left, 12, MPI_COMM_WORLD, &
        status, ierr)
    call rec('sendrecv_replace', right, b(2, klong), left, b(2, klong), -1)
    call check(value(2) == left, 'MPI_SENDRECV_REPLACE')

    ints = 0
    call MPI_SEND(ints, 7, MPI_INTEGER, right, 13, MPI_COMM_WORLD, ierr)
    call rec('send', right, b(7, kint), -1, 0_i8, -1)
    call MPI_PROBE(MPI_ANY_SOURCE, 13, MPI_COMM_WORLD, status, ierr)
    call rec('probe', -1, 0_i8, left, b(7, kint), -1)
    call MPI_RECV(ints, 8, MPI_INTEGER, status(MPI_SOURCE), 13, MPI_COMM_WORLD, &
        MPI_STATUS_IGNORE, ierr)
    call rec('recv', -1, 0_i8, left, b(7, kint), -1)

    call MPI_SEND(ints, 3, MPI_INTEGER, right, 14, MPI_COMM_WORLD, ierr)
    call rec('send', right, b(3, kint), -1, 0_i8, -1)
    flag = .false.
    do while (.not. flag)
      call MPI_IPROBE(left, 14, MPI_COMM_WORLD, flag, MPI_STATUS_IGNORE, ierr)
      if (flag) then
        call rec('iprobe', -1, 0_i8, left, b(3, kint), -1)
      else
        call rec('iprobe', -1, 0_i8, left, 0_i8, -1)
      end if
    end do
    call MPI_RECV(ints, 8, MPI_INTEGER, left, 14, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call rec('recv', -1, 0_i8, left, b(3, kint), -1)

    ! Probing MPI_PROC_NULL finds at once an empty message from nobody.
    call MPI_PROBE(MPI_PROC_NULL, 15, MPI_COMM_WORLD, status, ierr)
    call rec('probe', -1, 0_i8, -1, 0_i8, -1)
    call MPI_IPROBE(MPI_PROC_NULL, 15, MPI_COMM_WORLD, flag, status, ierr)
    call rec('iprobe', -1, 0_i8, -1, 0_i8, -1)
    call check(flag, 'MPI_IPROBE of MPI_PROC_NULL')
  end subroutine exchanges_and_probes

  ! Posts a receive of 6 doubles from the left and a send of `count` to the right, with `tag`,
  ! into requests(1:2).
  subroutine post_pair(in, out, count, tag, requests)
    double precision, asynchronous, intent(inout) :: in(*), out(*)
    integer, intent(in) :: count, tag
    integer, intent(inout) :: requests(2)
    integer :: right, left, ierr
    right = mod(me + 1, nprocs)
    left = mod(me + nprocs - 1, nprocs)
    call MPI_IRECV(in, 6, MPI_DOUBLE_PRECISION, left, tag, MPI_COMM_WORLD, requests(1), ierr)
    call rec('irecv', -1, 0_i8, left, b(6, kdouble), -1)
    call MPI_ISEND(out, count, MPI_DOUBLE_PRECISION, right, tag, MPI_COMM_WORLD, requests(2), ierr)
    call rec('isend', right, b(count, kdouble), -1, 0_i8, -1)
  end subroutine post_pair

  ! Non-blocking sends and receives, completed by every wait and test routine.
  subroutine nonblocking_point_to_point()
    integer :: right, left, ierr, k, index, outcount, finished, requests(4), indices(4)
    integer :: statuses(MPI_STATUS_SIZE, 4)
    double precision, asynchronous :: out(6), in(6, 4)
    logical :: flag
    right = mod(me + 1, nprocs)
    left = mod(me + nprocs - 1, nprocs)
    out = me

    call MPI_IRECV(in(1, 1), 6, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, 20, MPI_COMM_WORLD, &
        requests(1), ierr)
    call rec('irecv', -1, 0_i8, -2, b(6, kdouble), -1)
    call MPI_ISEND(out, 4, MPI_DOUBLE_PRECISION, right, 20, MPI_COMM_WORLD, requests(2), ierr)
    call rec('isend', right, b(4, kdouble), -1, 0_i8, -1)
    call MPI_WAIT(requests(1), statuses(:, 1), ierr)
    call event('wait')
    call done('r', left, b(4, kdouble))
    call check(in(4, 1) == left, 'MPI_IRECV from MPI_ANY_SOURCE')
    ! requests(1) is MPI_REQUEST_NULL now: nothing completes for it.
    call MPI_WAITALL(2, requests, MPI_STATUSES_IGNORE, ierr)
    call event('waitall')
    call done('s', right, b(4, kdouble))

    call MPI_IRECV(in(1, 1), 6, MPI_DOUBLE_PRECISION, left, 21, MPI_COMM_WORLD, requests(1), ierr)
    call rec('irecv', -1, 0_i8, left, b(6, kdouble), -1)
    call MPI_ISSEND(out, 5, MPI_DOUBLE_PRECISION, right, 21, MPI_COMM_WORLD, requests(2), ierr)
    call rec('issend', right, b(5, kdouble), -1, 0_i8, -1)
    call MPI_ISEND(out, 5, MPI_DOUBLE_PRECISION, MPI_PROC_NULL, 21, MPI_COMM_WORLD, &
        requests(3), ierr)
    call rec('isend', -1, 0_i8, -1, 0_i8, -1)
    do k = 1, 3
      call MPI_WAITANY(3, requests, index, statuses(:, 1), ierr)
      call event('waitany')
      if (index == 1) call done('r', left, b(5, kdouble))
      if (index == 2) call done('s', right, b(5, kdouble))
      if (index == 3) call done('s', -1, 0_i8)
    end do
    call check(in(5, 1) == left, 'MPI_ISSEND')

    call MPI_IRECV(in(1, 1), 6, MPI_DOUBLE_PRECISION, left, 22, MPI_COMM_WORLD, requests(1), ierr)
    call rec('irecv', -1, 0_i8, left, b(6, kdouble), -1)
    call MPI_IRECV(in(1, 2), 6, MPI_DOUBLE_PRECISION, MPI_PROC_NULL, 22, MPI_COMM_WORLD, &
        requests(2), ierr)
    call rec('irecv', -1, 0_i8, -1, 0_i8, -1)
    call MPI_ISEND(out, 0, MPI_DOUBLE_PRECISION, right, 22, MPI_COMM_WORLD, requests(3), ierr)
    call rec('isend', right, 0_i8, -1, 0_i8, -1)
    finished = 0
    do while (finished < 3)
      call MPI_WAITSOME(3, requests, outcount, indices, statuses, ierr)
      call event('waitsome')
      do k = 1, outcount
        if (indices(k) == 1) call done('r', left, 0_i8)
        if (indices(k) == 2) call done('r', -1, 0_i8)
        if (indices(k) == 3) call done('s', right, 0_i8)
      end do
      finished = finished + outcount
    end do
    ! Nothing left to complete: MPI_UNDEFINED, and no request record.
    call MPI_WAITSOME(3, requests, outcount, indices, statuses, ierr)
    call event('waitsome')
    call check(outcount == MPI_UNDEFINED, 'MPI_WAITSOME on null requests')

    call post_pair(in, out, 1, 23, requests)
    flag = .false.
    do while (.not. flag)
      call MPI_TEST(requests(1), flag, MPI_STATUS_IGNORE, ierr)
      call event('test')
      if (flag) call done('r', left, b(1, kdouble))
    end do
    flag = .false.
    do while (.not. flag)
      call MPI_TESTALL(1, requests(2:2), flag, statuses, ierr)
      call event('testall')
      if (flag) call done('s', right, b(1, kdouble))
    end do

    call post_pair(in, out, 6, 24, requests)
    finished = 0
    do while (finished < 2)
      call MPI_TESTANY(2, requests, index, flag, MPI_STATUS_IGNORE, ierr)
      call event('testany')
      if (flag .and. index == 1) call done('r', left, b(6, kdouble))
      if (flag .and. index == 2) call done('s', right, b(6, kdouble))
      if (flag .and. index /= MPI_UNDEFINED) finished = finished + 1
    end do

    call post_pair(in, out, 2, 25, requests)
    finished = 0
    do while (finished < 2)
      call MPI_TESTSOME(2, requests, outcount, indices, MPI_STATUSES_IGNORE, ierr)
      call event('testsome')
      if (outcount == MPI_UNDEFINED) cycle
      do k = 1, outcount
        if (indices(k) == 1) call done('r', left, b(2, kdouble))
        if (indices(k) == 2) call done('s', right, b(2, kdouble))
      end do
      finished = finished + outcount
    end do
  end subroutine nonblocking_point_to_point

  ! Persistent requests: MPI_START each, then MPI_STARTALL.
  subroutine persistent_requests()
    integer :: right, left, ierr, requests(2)
    integer, asynchronous :: out(5), in(5)
    right = mod(me + 1, nprocs)
    left = mod(me + nprocs - 1, nprocs)
    out = me
    in = 0
    call MPI_RECV_INIT(in, 5, MPI_INTEGER, left, 30, MPI_COMM_WORLD, requests(1), ierr)
    call rec('recv_init', -1, 0_i8, left, b(5, kint), -1)
    call MPI_SEND_INIT(out, 5, MPI_INTEGER, right, 30, MPI_COMM_WORLD, requests(2), ierr)
    call rec('send_init', right, b(5, kint), -1, 0_i8, -1)
    call MPI_START(requests(1), ierr)
    call started('start', -1, 0_i8, left, b(5, kint))
    call MPI_START(requests(2), ierr)
    call started('start', right, b(5, kint), -1, 0_i8)
    call MPI_WAITALL(2, requests, MPI_STATUSES_IGNORE, ierr)
    call event('waitall')
    call done('r', left, b(5, kint))
    call done('s', right, b(5, kint))
    call check(in(5) == left, 'persistent receive')
    call MPI_STARTALL(2, requests, ierr)
    call event('startall')
    call done('r', left, b(5, kint))
    call done('s', right, b(5, kint))
    call MPI_WAITALL(2, requests, MPI_STATUSES_IGNORE, ierr)
    call event('waitall')
    call done('r', left, b(5, kint))
    call done('s', right, b(5, kint))
    call MPI_REQUEST_FREE(requests(1), ierr)
    call MPI_REQUEST_FREE(requests(2), ierr)

    ! A persistent receive from MPI_ANY_SOURCE: its completion names the sender.
    call MPI_RECV_INIT(in, 5, MPI_INTEGER, MPI_ANY_SOURCE, 32, MPI_COMM_WORLD, requests(1), ierr)
    call rec('recv_init', -1, 0_i8, -2, b(5, kint), -1)
    call MPI_START(requests(1), ierr)
    call started('start', -1, 0_i8, -2, b(5, kint))
    call MPI_SEND(out, 3, MPI_INTEGER, right, 32, MPI_COMM_WORLD, ierr)
    call rec('send', right, b(3, kint), -1, 0_i8, -1)
    call MPI_WAIT(requests(1), MPI_STATUS_IGNORE, ierr)
    call event('wait')
    call done('r', left, b(3, kint))
    call MPI_REQUEST_FREE(requests(1), ierr)

    ! Persistent requests with MPI_PROC_NULL: started, completed, moving nothing.
    call MPI_SEND_INIT(out, 5, MPI_INTEGER, MPI_PROC_NULL, 31, MPI_COMM_WORLD, requests(1), ierr)
    call rec('send_init', -1, 0_i8, -1, 0_i8, -1)
    call MPI_RECV_INIT(in, 5, MPI_INTEGER, MPI_PROC_NULL, 31, MPI_COMM_WORLD, requests(2), ierr)
    call rec('recv_init', -1, 0_i8, -1, 0_i8, -1)
    call MPI_STARTALL(2, requests, ierr)
    call event('startall')
    call done('s', -1, 0_i8)
    call done('r', -1, 0_i8)
    call MPI_WAITALL(2, requests, MPI_STATUSES_IGNORE, ierr)
    call event('waitall')
    call done('s', -1, 0_i8)
    call done('r', -1, 0_i8)
    call MPI_REQUEST_FREE(requests(1), ierr)
    call MPI_REQUEST_FREE(requests(2), ierr)
  end subroutine persistent_requests

  ! The blocking collectives on MPI_COMM_WORLD: MPI_IN_PLACE, zero counts and derived types.
  subroutine blocking_collectives()
    integer, parameter :: kmax = 64
    integer :: n, ierr, i, j, groot, three_shorts
    integer :: counts(kmax), displs(kmax), rcounts(kmax), rdispls(kmax)
    integer :: stypes(kmax), rtypes(kmax), mine(kmax)
    integer, save :: ints(4 * kmax * kmax)
    double precision, save :: doubles(4 * kmax * kmax)
    integer :: sendv(4 * kmax), recvv(4 * kmax), pair(2), before(2)
    double precision :: received(kmax)
    integer(kind=2) :: shorts(3 * kmax + 3)
    character(len=1) :: wsend(16 * kmax), wrecv(16 * kmax)
    integer :: zeros(kmax)
    integer(i8) :: gathered, sent, got, wsent, wgot, one, prefix, symmetric
    n = nprocs
    ints = 0
    doubles = 0

    call MPI_BARRIER(MPI_COMM_WORLD, ierr)
    call rec('barrier', -1, 0_i8, -1, 0_i8, -1)

    doubles(1:7) = merge(7.0d0, 0.0d0, me == 1)
    call MPI_BCAST(doubles, 7, MPI_DOUBLE_PRECISION, 1, MPI_COMM_WORLD, ierr)
    call rec('bcast', -1, b(7, kdouble), -1, b(7, kdouble), 1)
    call check(doubles(7) == 7.0d0, 'MPI_BCAST')

    ints(1:3) = 1
    if (me == 0) then
      call MPI_REDUCE(MPI_IN_PLACE, ints, 3, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
      call check(ints(3) == n, 'MPI_REDUCE with MPI_IN_PLACE')
    else
      call MPI_REDUCE(ints, ints(10), 3, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    end if
    call rec('reduce', -1, b(3, kint), -1, b(3, kint), 0)

    doubles(1:4) = 1
    call MPI_ALLREDUCE(MPI_IN_PLACE, doubles, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, &
        ierr)
    call rec('allreduce', -1, b(4, kdouble), -1, b(4, kdouble), -1)
    call check(doubles(4) == n, 'MPI_ALLREDUCE with MPI_IN_PLACE')

    groot = mod(2, n)
    ints(2 * me + 1:2 * me + 2) = me
    if (me == groot) then
      ! The send count is ignored at the root: 0 tells the in-place block from it.
      call MPI_GATHER(MPI_IN_PLACE, 0, MPI_INTEGER, ints, 2, MPI_INTEGER, groot, &
          MPI_COMM_WORLD, ierr)
      call rec('gather', -1, b(2, kint), -1, b(2 * n, kint), groot)
      call check(ints(2 * n) == n - 1, 'MPI_GATHER with MPI_IN_PLACE')
    else
      call MPI_GATHER(ints(2 * me + 1), 2, MPI_INTEGER, ints, 2, MPI_INTEGER, groot, &
          MPI_COMM_WORLD, ierr)
      call rec('gather', -1, b(2, kint), -1, 0_i8, groot)
    end if

    gathered = 0
    do i = 1, n
      counts(i) = i
      displs(i) = (i - 1) * n
      gathered = gathered + i
    end do
    mine = me
    call MPI_GATHERV(mine, me + 1, MPI_INTEGER, ints, counts, displs, MPI_INTEGER, 0, &
        MPI_COMM_WORLD, ierr)
    call rec('gatherv', -1, b(me + 1, kint), -1, merge(gathered * kint, 0_i8, me == 0), 0)
    if (me == 0) call check(ints((n - 1) * n + n) == n - 1, 'MPI_GATHERV')

    ints(1:3 * n) = [((i - 1) / 3, i = 1, 3 * n)]
    if (me == 1) then
      call MPI_SCATTER(ints, 3, MPI_INTEGER, MPI_IN_PLACE, 0, MPI_INTEGER, 1, MPI_COMM_WORLD, &
          ierr)
      call rec('scatter', -1, b(3 * n, kint), -1, b(3, kint), 1)
    else
      call MPI_SCATTER(ints, 3, MPI_INTEGER, ints, 3, MPI_INTEGER, 1, MPI_COMM_WORLD, ierr)
      call rec('scatter', -1, 0_i8, -1, b(3, kint), 1)
      call check(ints(3) == me, 'MPI_SCATTER')
    end if

    doubles(1:n * n) = [((i - 1) / n, i = 1, n * n)]
    call MPI_SCATTERV(doubles, counts, displs, MPI_DOUBLE_PRECISION, received, me + 1, &
        MPI_DOUBLE_PRECISION, n - 1, MPI_COMM_WORLD, ierr)
    call rec('scatterv', -1, merge(gathered * kdouble, 0_i8, me == n - 1), -1, &
        b(me + 1, kdouble), n - 1)
    call check(received(me + 1) == me, 'MPI_SCATTERV')

    call MPI_TYPE_CONTIGUOUS(3, MPI_INTEGER2, three_shorts, ierr)
    call MPI_TYPE_COMMIT(three_shorts, ierr)
    shorts = 0
    shorts(1:3) = int(me, 2)
    call MPI_ALLGATHER(shorts, 1, three_shorts, shorts(4), 3, MPI_INTEGER2, MPI_COMM_WORLD, ierr)
    call rec('allgather', -1, b(3, kshort), -1, b(3 * n, kshort), -1)
    call check(shorts(3 + 3 * n) == n - 1, 'MPI_ALLGATHER of a contiguous type')
    call MPI_TYPE_FREE(three_shorts, ierr)

    ints(me * n + 1:me * n + me + 1) = me
    call MPI_ALLGATHERV(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ints, counts, displs, MPI_INTEGER, &
        MPI_COMM_WORLD, ierr)
    call rec('allgatherv', -1, b(me + 1, kint), -1, gathered * kint, -1)
    call check(ints((n - 1) * n + 1) == n - 1, 'MPI_ALLGATHERV with MPI_IN_PLACE')

    call MPI_ALLTOALL(ints, 0, MPI_INTEGER, ints(n + 1), 0, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    call rec('alltoall', -1, 0_i8, -1, 0_i8, -1)

    sent = 0
    got = 0
    do j = 0, n - 1
      counts(j + 1) = mod(me + 2 * j, 3) + 1
      displs(j + 1) = 4 * j
      rcounts(j + 1) = mod(j + 2 * me, 3) + 1
      rdispls(j + 1) = 4 * j
      sent = sent + counts(j + 1)
      got = got + rcounts(j + 1)
    end do
    sendv = me
    call MPI_ALLTOALLV(sendv, counts, displs, MPI_INTEGER, recvv, rcounts, rdispls, MPI_INTEGER, &
        MPI_COMM_WORLD, ierr)
    call rec('alltoallv', -1, sent * kint, -1, got * kint, -1)
    call check(recvv(4 * (n - 1) + 1) == n - 1, 'MPI_ALLTOALLV')

    wsent = 0
    wgot = 0
    do j = 0, n - 1
      counts(j + 1) = 2
      rcounts(j + 1) = 2
      displs(j + 1) = 16 * j
      rdispls(j + 1) = 16 * j
      stypes(j + 1) = merge(MPI_INTEGER, MPI_DOUBLE_PRECISION, mod(j, 2) == 0)
      rtypes(j + 1) = merge(MPI_INTEGER, MPI_DOUBLE_PRECISION, mod(me, 2) == 0)
      wsent = wsent + merge(2 * kint, 2 * kdouble, mod(j, 2) == 0)
      wgot = wgot + merge(2 * kint, 2 * kdouble, mod(me, 2) == 0)
    end do
    wsend = achar(0)
    call MPI_ALLTOALLW(wsend, counts, displs, stypes, wrecv, rcounts, rdispls, rtypes, &
        MPI_COMM_WORLD, ierr)
    call rec('alltoallw', -1, wsent, -1, wgot, -1)

    ! The all-to-alls in place: send arguments ignored (zero counts), this rank contributes
    ! what it receives; Alltoallv and Alltoallw with symmetric counts j + me + 1.
    call MPI_ALLTOALL(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recvv, 2, MPI_INTEGER, &
        MPI_COMM_WORLD, ierr)
    call rec('alltoall', -1, b(2 * n, kint), -1, b(2 * n, kint), -1)
    symmetric = 0
    do j = 0, n - 1
      rcounts(j + 1) = j + me + 1
      rdispls(j + 1) = 2 * kmax * j / n
      zeros(j + 1) = 0
      symmetric = symmetric + rcounts(j + 1)
    end do
    call MPI_ALLTOALLV(MPI_IN_PLACE, zeros, zeros, MPI_DATATYPE_NULL, recvv, rcounts, rdispls, &
        MPI_INTEGER, MPI_COMM_WORLD, ierr)
    call rec('alltoallv', -1, symmetric * kint, -1, symmetric * kint, -1)
    rdispls(1:n) = rdispls(1:n) * kint
    rtypes(1:n) = MPI_INTEGER
    call MPI_ALLTOALLW(MPI_IN_PLACE, zeros, zeros, rtypes, recvv, rcounts, rdispls, rtypes, &
        MPI_COMM_WORLD, ierr)
    call rec('alltoallw', -1, symmetric * kint, -1, symmetric * kint, -1)

    do i = 1, n
      counts(i) = i
    end do
    sendv = 1
    call MPI_REDUCE_SCATTER(sendv, recvv, counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    call rec('reduce_scatter', -1, gathered * kint, -1, b(me + 1, kint), -1)
    call check(recvv(me + 1) == n, 'MPI_REDUCE_SCATTER')

    doubles(1:2 * n) = 1
    call MPI_REDUCE_SCATTER_BLOCK(doubles, received, 2, MPI_DOUBLE_PRECISION, MPI_SUM, &
        MPI_COMM_WORLD, ierr)
    call rec('reduce_scatter_block', -1, b(2 * n, kdouble), -1, b(2, kdouble), -1)
    call check(received(2) == n, 'MPI_REDUCE_SCATTER_BLOCK')

    one = 1
    call MPI_SCAN(one, prefix, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
    call rec('scan', -1, b(1, klong), -1, b(1, klong), -1)
    call check(prefix == me + 1, 'MPI_SCAN')
    pair = 1
    before = 0
    call MPI_EXSCAN(pair, before, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    call rec('exscan', -1, b(2, kint), -1, b(2, kint), -1)
    if (me > 0) call check(before(2) == me, 'MPI_EXSCAN')
  end subroutine blocking_collectives

  ! The non-blocking collectives, all outstanding, then one MPI_WAITALL; each completes as a
  ! send with no peer and the bytes this rank contributes.
  subroutine nonblocking_collectives()
    integer, parameter :: kmax = 64, half = 4 * kmax, nb = 16
    integer, asynchronous, save :: a(2 * half, nb)
    double precision, asynchronous, save :: d(2 * half, nb)
    integer :: n, ierr, i, k, last, r(nb), request, counts(kmax), displs(kmax), ones(kmax)
    integer :: unit_displs(kmax), bdispls(kmax), types(kmax)
    integer, asynchronous :: one, before
    integer(i8) :: sum, bytes(nb)
    n = nprocs
    last = n - 1
    sum = 0
    do i = 1, n
      counts(i) = i
      displs(i) = 4 * (i - 1)
      ones(i) = 1
      unit_displs(i) = i - 1
      bdispls(i) = kdouble * (i - 1)
      types(i) = MPI_DOUBLE_PRECISION
      sum = sum + i
    end do
    a = 1
    d = 1

    call MPI_IBARRIER(MPI_COMM_WORLD, r(1), ierr)
    call rec('ibarrier', -1, 0_i8, -1, 0_i8, -1)
    bytes(1) = 0
    call MPI_IBCAST(d(1, 2), 3, MPI_DOUBLE_PRECISION, last, MPI_COMM_WORLD, r(2), ierr)
    call rec('ibcast', -1, b(3, kdouble), -1, b(3, kdouble), last)
    bytes(2) = b(3, kdouble)
    if (me == 0) then
      call MPI_IREDUCE(MPI_IN_PLACE, a(1, 3), 2, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, r(3), &
          ierr)
    else
      call MPI_IREDUCE(a(1, 3), a(half + 1, 3), 2, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, &
          r(3), ierr)
    end if
    call rec('ireduce', -1, b(2, kint), -1, b(2, kint), 0)
    bytes(3) = b(2, kint)
    call MPI_IALLREDUCE(MPI_IN_PLACE, d(1, 4), 5, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, &
        r(4), ierr)
    call rec('iallreduce', -1, b(5, kdouble), -1, b(5, kdouble), -1)
    bytes(4) = b(5, kdouble)
    call MPI_IGATHER(a(1, 5), 0, MPI_INTEGER, a(half + 1, 5), 0, MPI_INTEGER, mod(1, n), &
        MPI_COMM_WORLD, r(5), ierr)
    call rec('igather', -1, 0_i8, -1, 0_i8, mod(1, n))
    bytes(5) = 0
    call MPI_IGATHERV(a(1, 6), me + 1, MPI_INTEGER, a(half + 1, 6), counts, displs, MPI_INTEGER, &
        last, MPI_COMM_WORLD, r(6), ierr)
    call rec('igatherv', -1, b(me + 1, kint), -1, merge(sum * kint, 0_i8, me == last), last)
    bytes(6) = b(me + 1, kint)
    call MPI_ISCATTER(d(1, 7), 2, MPI_DOUBLE_PRECISION, d(half + 1, 7), 2, MPI_DOUBLE_PRECISION, &
        0, MPI_COMM_WORLD, r(7), ierr)
    call rec('iscatter', -1, merge(b(2 * n, kdouble), 0_i8, me == 0), -1, b(2, kdouble), 0)
    bytes(7) = merge(b(2 * n, kdouble), 0_i8, me == 0)
    if (me == 0) then
      call MPI_ISCATTERV(a(1, 8), counts, displs, MPI_INTEGER, MPI_IN_PLACE, 0, &
          MPI_INTEGER, 0, MPI_COMM_WORLD, r(8), ierr)
    else
      call MPI_ISCATTERV(a(1, 8), counts, displs, MPI_INTEGER, a(half + 1, 8), me + 1, &
          MPI_INTEGER, 0, MPI_COMM_WORLD, r(8), ierr)
    end if
    call rec('iscatterv', -1, merge(sum * kint, 0_i8, me == 0), -1, b(me + 1, kint), 0)
    bytes(8) = merge(sum * kint, 0_i8, me == 0)
    call MPI_IALLGATHER(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d(1, 9), 2, MPI_DOUBLE_PRECISION, &
        MPI_COMM_WORLD, r(9), ierr)
    call rec('iallgather', -1, b(2, kdouble), -1, b(2 * n, kdouble), -1)
    bytes(9) = b(2, kdouble)
    call MPI_IALLGATHERV(a(1, 10), me + 1, MPI_INTEGER, a(half + 1, 10), counts, displs, &
        MPI_INTEGER, MPI_COMM_WORLD, r(10), ierr)
    call rec('iallgatherv', -1, b(me + 1, kint), -1, sum * kint, -1)
    bytes(10) = b(me + 1, kint)
    call MPI_IALLTOALL(d(1, 11), 1, MPI_DOUBLE_PRECISION, d(half + 1, 11), 1, &
        MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, r(11), ierr)
    call rec('ialltoall', -1, b(n, kdouble), -1, b(n, kdouble), -1)
    bytes(11) = b(n, kdouble)
    call MPI_IALLTOALLV(a(1, 12), ones, unit_displs, MPI_INTEGER, a(half + 1, 12), ones, &
        unit_displs, MPI_INTEGER, MPI_COMM_WORLD, r(12), ierr)
    call rec('ialltoallv', -1, b(n, kint), -1, b(n, kint), -1)
    bytes(12) = b(n, kint)
    call MPI_IALLTOALLW(d(1, 13), ones, bdispls, types, d(half + 1, 13), ones, bdispls, types, &
        MPI_COMM_WORLD, r(13), ierr)
    call rec('ialltoallw', -1, b(n, kdouble), -1, b(n, kdouble), -1)
    bytes(13) = b(n, kdouble)
    call MPI_IREDUCE_SCATTER(a(1, 14), a(half + 1, 14), counts, MPI_INTEGER, MPI_SUM, &
        MPI_COMM_WORLD, r(14), ierr)
    call rec('ireduce_scatter', -1, sum * kint, -1, b(me + 1, kint), -1)
    bytes(14) = sum * kint
    call MPI_IREDUCE_SCATTER_BLOCK(d(1, 15), d(half + 1, 15), 1, MPI_DOUBLE_PRECISION, MPI_SUM, &
        MPI_COMM_WORLD, r(15), ierr)
    call rec('ireduce_scatter_block', -1, b(n, kdouble), -1, b(1, kdouble), -1)
    bytes(15) = b(n, kdouble)
    call MPI_ISCAN(d(1, 16), d(half + 1, 16), 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, &
        r(16), ierr)
    call rec('iscan', -1, b(2, kdouble), -1, b(2, kdouble), -1)
    bytes(16) = b(2, kdouble)
    call MPI_WAITALL(nb, r, MPI_STATUSES_IGNORE, ierr)
    call event('waitall')
    do k = 1, nb
      call done('s', -1, bytes(k))
    end do
    call check(d(5, 4) == 1.0d0 .and. d(half + 2, 16) == me + 1, 'non-blocking collectives')

    one = 1
    before = 0
    call MPI_IEXSCAN(one, before, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, request, ierr)
    call rec('iexscan', -1, b(1, kint), -1, b(1, kint), -1)
    call MPI_WAIT(request, MPI_STATUS_IGNORE, ierr)
    call event('wait')
    call done('s', -1, b(1, kint))
    if (me > 0) call check(before == me, 'MPI_IEXSCAN')
  end subroutine nonblocking_collectives

  ! Communicator and topology creation, and calls on what they made.
  subroutine sub_communicators()
    integer :: n, ierr, parity, size, sub, next, prev, request, dup, world_group, upper_group
    integer :: upper, grid, row, ring, from, to, status(MPI_STATUS_SIZE)
    integer :: value(4), members(64), range(3, 1), dims(2), sources(1), degrees(1), chosen(2)
    integer :: destinations(1), weights(1)
    integer, asynchronous :: mine
    logical :: periods(2), remain(2)
    double precision :: x, upper_sum
    n = nprocs

    call MPI_COMM_SPLIT(MPI_COMM_WORLD, mod(me, 2), n - me, parity, ierr)
    call created('comm_split', MPI_COMM_WORLD, parity)
    current = parity
    call MPI_COMM_SIZE(parity, size, ierr)
    call MPI_COMM_RANK(parity, sub, ierr)
    value = me
    call MPI_BCAST(value, 4, MPI_INTEGER, 0, parity, ierr)
    call rec('bcast', -1, b(4, kint), -1, b(4, kint), world_rank(parity, 0))
    call check(value(1) == world_rank(parity, 0), 'MPI_BCAST on a split communicator')
    if (size > 1) then
      next = mod(sub + 1, size)
      prev = mod(sub + size - 1, size)
      call MPI_SENDRECV(value, 1, MPI_INTEGER, next, 40, value(2), 1, MPI_INTEGER, prev, 40, &
          parity, status, ierr)
      call rec('sendrecv', world_rank(parity, next), b(1, kint), world_rank(parity, prev), &
          b(1, kint), -1)
    end if
    call MPI_ALLGATHER(me, 1, MPI_INTEGER, members, 1, MPI_INTEGER, parity, ierr)
    call rec('allgather', -1, b(1, kint), -1, b(size, kint), -1)
    call check(members(1) == world_rank(parity, 0), 'MPI_ALLGATHER on a split communicator')
    mine = me
    call MPI_IGATHER(mine, 1, MPI_INTEGER, members, 1, MPI_INTEGER, size - 1, parity, request, &
        ierr)
    call rec('igather', -1, b(1, kint), -1, merge(b(size, kint), 0_i8, sub == size - 1), &
        world_rank(parity, size - 1))
    call MPI_WAIT(request, MPI_STATUS_IGNORE, ierr)
    call event('wait')
    call done('s', -1, b(1, kint))

    call MPI_COMM_DUP(MPI_COMM_WORLD, dup, ierr)
    call created('comm_dup', MPI_COMM_WORLD, dup)
    current = dup
    x = 1
    call MPI_ALLREDUCE(MPI_IN_PLACE, x, 1, MPI_DOUBLE_PRECISION, MPI_SUM, dup, ierr)
    call rec('allreduce', -1, b(1, kdouble), -1, b(1, kdouble), -1)
    call check(x == n, 'MPI_ALLREDUCE on a duplicate')

    call MPI_COMM_GROUP(MPI_COMM_WORLD, world_group, ierr)
    range(:, 1) = [n / 2, n - 1, 1]
    call MPI_GROUP_RANGE_INCL(world_group, 1, range, upper_group, ierr)
    call MPI_COMM_CREATE(MPI_COMM_WORLD, upper_group, upper, ierr)
    call created('comm_create', MPI_COMM_WORLD, upper)
    if (upper /= MPI_COMM_NULL) then
      current = upper
      call MPI_REDUCE(x, upper_sum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, upper, ierr)
      call rec('reduce', -1, b(1, kdouble), -1, b(1, kdouble), n / 2)
      call MPI_COMM_FREE(upper, ierr)
    end if
    call MPI_GROUP_FREE(upper_group, ierr)
    call MPI_GROUP_FREE(world_group, ierr)

    ! No event: a dims_create line with the extents given and chosen.
    chosen = [2, 0]
    call MPI_DIMS_CREATE(n, 2, chosen, ierr)
    write (unit_record, '(a, 6(1x, i0))') 'dims_create', n, 2, 2, 0, chosen(1), chosen(2)

    dims = [2, n / 2]
    periods = .true.
    call MPI_CART_CREATE(MPI_COMM_WORLD, 2, dims, periods, .false., grid, ierr)
    call created('cart_create', MPI_COMM_WORLD, grid)
    current = grid
    call MPI_CART_SHIFT(grid, 1, 1, from, to, ierr)
    call MPI_SENDRECV(value, 2, MPI_INTEGER, to, 41, value(3), 2, MPI_INTEGER, from, 41, grid, &
        status, ierr)
    call rec('sendrecv', world_rank(grid, to), b(2, kint), world_rank(grid, from), b(2, kint), -1)
    remain = [.false., .true.]
    call MPI_CART_SUB(grid, remain, row, ierr)
    call created('cart_sub', grid, row)
    current = row
    call MPI_BARRIER(row, ierr)
    call rec('barrier', -1, 0_i8, -1, 0_i8, -1)
    call MPI_COMM_FREE(row, ierr)
    call MPI_COMM_FREE(grid, ierr)

    sources(1) = me
    degrees(1) = 1
    destinations(1) = mod(me + 1, n)
    weights(1) = 1
    call MPI_DIST_GRAPH_CREATE(MPI_COMM_WORLD, 1, sources, degrees, destinations, weights, &
        MPI_INFO_NULL, .false., ring, ierr)
    call created('dist_graph_create', MPI_COMM_WORLD, ring)
    call MPI_COMM_FREE(ring, ierr)
    call MPI_COMM_FREE(dup, ierr)
    call intercommunicator(parity)
    call MPI_COMM_FREE(parity, ierr)
    current = MPI_COMM_WORLD
  end subroutine sub_communicators

  ! An intercommunicator between the even and the odd ranks, as in every_call.c: peers and
  ! roots are world ranks of the remote group, the root group's root passes MPI_ROOT and its
  ! other members MPI_PROC_NULL (idle), and COMM is the local group.
  subroutine intercommunicator(parity)
    integer, intent(in) :: parity
    integer :: ierr, inter, sub, remote_size, remote_leader, partner, root_arg, root_world
    integer, asynchronous :: out(4), in(256)
    integer :: request
    logical :: even, idle
    double precision :: x, sum
    even = mod(me, 2) == 0
    remote_leader = merge(nprocs - 1, nprocs - 2, even)
    call MPI_INTERCOMM_CREATE(parity, 0, MPI_COMM_WORLD, remote_leader, 50, inter, ierr)
    current = inter
    call MPI_COMM_RANK(inter, sub, ierr)
    call MPI_COMM_REMOTE_SIZE(inter, remote_size, ierr)
    out = me

    partner = remote_world_rank(inter, sub)
    call MPI_SENDRECV(out, 2, MPI_INTEGER, sub, 51, in, 4, MPI_INTEGER, sub, 51, inter, &
        MPI_STATUS_IGNORE, ierr)
    call rec('sendrecv', partner, b(2, kint), partner, b(2, kint), -1)
    call check(in(2) == partner, 'MPI_SENDRECV on an intercommunicator')

    if (even) then
      root_arg = merge(MPI_ROOT, MPI_PROC_NULL, sub == 0)
      root_world = merge(me, -1, sub == 0)
    else
      root_arg = 0
      root_world = remote_world_rank(inter, 0)
    end if
    idle = even .and. sub /= 0
    call MPI_BCAST(out, 3, MPI_INTEGER, root_arg, inter, ierr)
    call rec('bcast', -1, merge(0_i8, b(3, kint), idle), -1, merge(0_i8, b(3, kint), idle), &
        root_world)
    call MPI_GATHER(out, 1, MPI_INTEGER, in, 1, MPI_INTEGER, root_arg, inter, ierr)
    if (even) then
      call rec('gather', -1, 0_i8, -1, merge(b(remote_size, kint), 0_i8, sub == 0), root_world)
    else
      call rec('gather', -1, b(1, kint), -1, 0_i8, root_world)
    end if

    x = 1
    call MPI_ALLREDUCE(x, sum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, inter, ierr)
    call rec('allreduce', -1, b(1, kdouble), -1, b(1, kdouble), -1)
    call check(sum == remote_size, 'MPI_ALLREDUCE on an intercommunicator')
    call MPI_IALLTOALL(out, 1, MPI_INTEGER, in, 1, MPI_INTEGER, inter, request, ierr)
    call rec('ialltoall', -1, b(remote_size, kint), -1, b(remote_size, kint), -1)
    call MPI_WAIT(request, MPI_STATUS_IGNORE, ierr)
    call event('wait')
    call done('s', -1, b(remote_size, kint))
    call MPI_COMM_FREE(inter, ierr)
    current = parity
  end subroutine intercommunicator

end module every_call_sections

program every_call_f
  use every_call_sections
  implicit none
  character(len=4096) :: dir, mode, env
  character(len=4200) :: path
  integer :: ierr, provided, total, env_status, env_rank
  logical :: odd, abort_run

  ! Which init a rank calls depends on its rank: the launcher's environment says it first.
  call get_environment_variable('OMPI_COMM_WORLD_RANK', env, status=env_status)
  if (env_status /= 0) call get_environment_variable('PMI_RANK', env, status=env_status)
  env_rank = 0
  if (env_status == 0) read (env, *) env_rank
  odd = mod(env_rank, 2) == 1
  if (odd) then
    call MPI_INIT_THREAD(MPI_THREAD_FUNNELED, provided, ierr)
  else
    call MPI_INIT(ierr)
  end if
  call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
  if (command_argument_count() < 1 .or. command_argument_count() > 2 .or. &
      mod(nprocs, 2) /= 0 .or. nprocs > 64 .or. odd .neqv. mod(me, 2) == 1) then
    if (me == 0) write (*, '(a)') 'usage: app_every_call_f RECORD_DIR [abort]   (n even, 2..64)'
    call MPI_FINALIZE(ierr)
    stop 2
  end if
  call get_command_argument(1, dir)
  mode = ''
  if (command_argument_count() == 2) call get_command_argument(2, mode)
  abort_run = trim(mode) == 'abort'
  write (path, '(a, a, i5.5, a)') trim(dir), '/record-', me, '.txt'
  open (unit=unit_record, file=trim(path), status='replace', action='write')

  if (abort_run) then
    call MPI_BARRIER(MPI_COMM_WORLD, ierr)
    call rec('barrier', -1, 0_i8, -1, 0_i8, -1)
    if (me == 0) then
      write (unit_record, '(a)') 'abort'
      close (unit_record)
      call MPI_ABORT(MPI_COMM_WORLD, 3, ierr)
    end if
    call MPI_BARRIER(MPI_COMM_WORLD, ierr)
    stop 1
  end if

  call blocking_point_to_point()
  call exchanges_and_probes()
  call nonblocking_point_to_point()
  call persistent_requests()
  call blocking_collectives()
  call nonblocking_collectives()
  call sub_communicators()

  total = 0
  call MPI_REDUCE(failures, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  call rec('reduce', -1, b(1, kint), -1, b(1, kint), 0)
  call MPI_FINALIZE(ierr)
  call event('finalize')
  close (unit_record)
  if (me == 0) then
    if (total == 0) then
      write (*, '(a)') 'SUCCESS'
    else
      write (*, '(a)') 'FAIL'
      stop 1
    end if
  end if
end program every_call_f
