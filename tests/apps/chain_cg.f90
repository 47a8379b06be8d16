! app_chain_cg_f: conjugate gradients on a 3D box cut into slabs along z, one slab per rank, the
! slabs forming a NON-periodic chain (a CG proxy, in Fortran as many such codes are).
!
! usage: app_chain_cg_f [edge [iterations]]   (defaults 32 and 50; any n >= 1)
!
! Rank r owns an edge x edge x 8 slab of a box of edge x edge x 8n cells. Its neighbours are
! below = r-1 (if r > 0) and above = r+1 (if r < n-1), written as the guards real codes use
! (no MPI_PROC_NULL): the two ends have one neighbour, a single rank none.
! Setup: MPI_BCAST of 2 integers from rank 0 (the arguments), then MPI_ALLREDUCE of 1 double
! precision (MPI_SUM): the right-hand side's squared norm.
! Every CG iteration, in this order:
!   MPI_IRECV of one plane (edge*edge double precision, tag 1) from below, if it exists,
!   MPI_IRECV of one plane (tag 2) from above, if it exists,
!   MPI_SEND of the rank's top plane to above (tag 1), if it exists,
!   MPI_SEND of the rank's bottom plane to below (tag 2), if it exists,
!   MPI_WAIT on the receive from below, then on the one from above (each only if posted),
!   the matrix-vector product (7-point operator 7 - sum of neighbours, zero outside the box),
!   MPI_ALLREDUCE of 1 double precision (MPI_SUM): p.Ap,
!   MPI_ALLREDUCE of 1 double precision (MPI_SUM): the new r.r.
! After the loop: MPI_REDUCE of 1 integer (MPI_MIN) to rank 0, the ranks' verdicts.
!
! Verification: the operator is symmetric and diagonally dominant (condition number below 13),
! so CG converges fast: after 20 iterations or more the final r.r has to be below 1e-6 of the
! initial one.
program chain_cg
  use mpi
  use, intrinsic :: iso_fortran_env, only: output_unit, error_unit
  implicit none

  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: depth = 8
  integer, parameter :: tag_up = 1, tag_down = 2
  character(len=*), parameter :: usage = &
      'app_chain_cg_f [edge 2..512 (32)] [iterations 1..1000000 (50)]'

  integer :: ierr, rank, nprocs, edge, iters, below, above, it, i, j, k, nreq_below, nreq_above
  integer :: args(2), verdict, all_verdict
  logical :: args_ok, ok
  integer :: request_below, request_above
  real(dp), allocatable :: x(:, :, :), r(:, :, :), ap(:, :, :)
  ! p carries the ghost planes 0 and depth+1 that the receives fill.
  real(dp), allocatable, asynchronous :: p(:, :, :)
  real(dp) :: local, rr, rr_new, rr_first, pap, alpha, beta

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)

  args_ok = command_argument_count() <= 2
  if (args_ok) call read_arg(1, 2, 512, 32, edge, args_ok)
  if (args_ok) call read_arg(2, 1, 1000000, 50, iters, args_ok)
  if (.not. args_ok) then
    if (rank == 0) write (error_unit, '(a)') 'error: bad arguments', 'usage: '//usage
    call MPI_FINALIZE(ierr)
    stop 2, quiet=.true.
  end if

  below = -1
  above = -1
  if (rank > 0) below = rank - 1
  if (rank < nprocs - 1) above = rank + 1

  ok = .true.
  args = [edge, iters]
  call MPI_BCAST(args, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (args(1) /= edge .or. args(2) /= iters) ok = .false.

  allocate (x(edge, edge, depth), r(edge, edge, depth), ap(edge, edge, depth))
  allocate (p(edge, edge, 0:depth + 1))
  ! b = r = p at x = 0: a smooth field of the global position.
  x = 0.0_dp
  do k = 1, depth
    do j = 1, edge
      do i = 1, edge
        r(i, j, k) = real(mod(i * 7 + j * 3 + (rank * depth + k) * 5, 17), dp) + 1.0_dp
      end do
    end do
  end do
  p = 0.0_dp
  p(:, :, 1:depth) = r
  local = sum(r * r)
  call MPI_ALLREDUCE(local, rr, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  rr_first = rr

  do it = 1, iters
    nreq_below = 0
    nreq_above = 0
    p(:, :, 0) = 0.0_dp
    p(:, :, depth + 1) = 0.0_dp
    if (below >= 0) then
      call MPI_IRECV(p(:, :, 0), edge * edge, MPI_DOUBLE_PRECISION, below, tag_up, &
                     MPI_COMM_WORLD, request_below, ierr)
      nreq_below = 1
    end if
    if (above >= 0) then
      call MPI_IRECV(p(:, :, depth + 1), edge * edge, MPI_DOUBLE_PRECISION, above, tag_down, &
                     MPI_COMM_WORLD, request_above, ierr)
      nreq_above = 1
    end if
    if (above >= 0) call MPI_SEND(p(:, :, depth), edge * edge, MPI_DOUBLE_PRECISION, above, &
                                  tag_up, MPI_COMM_WORLD, ierr)
    if (below >= 0) call MPI_SEND(p(:, :, 1), edge * edge, MPI_DOUBLE_PRECISION, below, &
                                  tag_down, MPI_COMM_WORLD, ierr)
    if (nreq_below == 1) call MPI_WAIT(request_below, MPI_STATUS_IGNORE, ierr)
    if (nreq_above == 1) call MPI_WAIT(request_above, MPI_STATUS_IGNORE, ierr)

    call apply_operator()
    local = sum(p(:, :, 1:depth) * ap)
    call MPI_ALLREDUCE(local, pap, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    ! A converged solve keeps iterating with zero steps: the call pattern stays fixed.
    alpha = 0.0_dp
    if (pap > 0.0_dp) alpha = rr / pap
    x = x + alpha * p(:, :, 1:depth)
    r = r - alpha * ap
    local = sum(r * r)
    call MPI_ALLREDUCE(local, rr_new, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    beta = 0.0_dp
    if (rr > 0.0_dp) beta = rr_new / rr
    p(:, :, 1:depth) = r + beta * p(:, :, 1:depth)
    rr = rr_new
  end do
  if (iters >= 20 .and. rr > 1.0e-6_dp * rr_first) ok = .false.

  verdict = merge(1, 0, ok)
  call MPI_REDUCE(verdict, all_verdict, 1, MPI_INTEGER, MPI_MIN, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (all_verdict == 1) then
      write (output_unit, '(a)') 'SUCCESS'
    else
      write (output_unit, '(a)') 'FAIL'
    end if
    flush (output_unit)
  end if
  call MPI_FINALIZE(ierr)
  if (rank == 0 .and. all_verdict /= 1) stop 1, quiet=.true.

contains

  ! ap = (7 - sum of the 6 neighbours) p, with zero outside the box; the ghost planes hold the
  ! neighbouring slabs' planes (zero at the chain's ends).
  subroutine apply_operator()
    integer :: ii, jj, kk
    real(dp) :: s
    do kk = 1, depth
      do jj = 1, edge
        do ii = 1, edge
          s = p(ii, jj, kk - 1) + p(ii, jj, kk + 1)
          if (ii > 1) s = s + p(ii - 1, jj, kk)
          if (ii < edge) s = s + p(ii + 1, jj, kk)
          if (jj > 1) s = s + p(ii, jj - 1, kk)
          if (jj < edge) s = s + p(ii, jj + 1, kk)
          ap(ii, jj, kk) = 7.0_dp * p(ii, jj, kk) - s
        end do
      end do
    end do
  end subroutine apply_operator

  subroutine read_arg(index, lo, hi, fallback, value, good)
    integer, intent(in) :: index, lo, hi, fallback
    integer, intent(out) :: value
    logical, intent(inout) :: good
    character(len=32) :: text
    integer :: status
    value = fallback
    if (index > command_argument_count()) return
    call get_command_argument(index, text)
    read (text, *, iostat=status) value
    if (status /= 0 .or. value < lo .or. value > hi) good = .false.
  end subroutine read_arg

end program chain_cg
