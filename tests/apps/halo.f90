! app_halo_f: 1D periodic halo exchange, written in Fortran so that p3s's tracer is tested on
! the Fortran MPI bindings (mpi_isend_ and friends) as well as the C ones.
!
! usage: app_halo_f [width [iterations]]   (defaults 64 and 50; any n >= 1)
!
! Each rank owns a width x width block of a 2D field that is periodic in both directions and
! split across ranks in one direction only: left = mod(r-1+n, n), right = mod(r+1, n).
! Every iteration, in this order:
!   MPI_IRECV `width` doubles from left (tag 2), then from right (tag 1),
!   MPI_ISEND `width` doubles to left (tag 1), then to right (tag 2),
!   MPI_WAITALL over the 4 requests,
!   one explicit diffusion step over the block,
!   MPI_ALLREDUCE of 1 double precision (MPI_SUM): the squared size of the step.
! The tag says which way a message travels (1 = leftwards, 2 = rightwards); with n = 1 or 2
! left and right are the same rank and the tags are what keeps the two messages apart.
! After the loop: one MPI_REDUCE of 1 double precision (MPI_SUM) to rank 0, the global sum.
!
! Verification (as in app_stencil2d): diffusion on a periodic domain conserves the global sum,
! which rank 0 compares with the sum of the initial formula; and the step is a contraction,
! so the residual may never grow.
program halo
  use mpi
  use, intrinsic :: iso_fortran_env, only: output_unit, error_unit
  implicit none

  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: tag_leftwards = 1, tag_rightwards = 2
  ! Diffusion weight per neighbour: below 1/8 keeps the explicit step a contraction.
  real(dp), parameter :: weight = 0.1_dp
  character(len=*), parameter :: usage = &
      'app_halo_f [width 1..4096 (64)] [iterations 1..1000000 (50)]'

  integer :: ierr, rank, nprocs, width, iters, left, right, it, i, j, im, ip
  logical :: args_ok, ok
  integer :: requests(4)
  real(dp), allocatable :: u(:, :), next(:, :)
  ! ASYNCHRONOUS: MPI writes these after the IRECV/ISEND calls return, so the compiler must
  ! not keep their values in registers across MPI_WAITALL.
  real(dp), allocatable, asynchronous :: send_left(:), send_right(:), recv_left(:), recv_right(:)
  real(dp) :: flow, local_residual, residual, previous_residual, local_sum, global_sum, expected
  integer(kind=8) :: gi, gj

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)

  args_ok = command_argument_count() <= 2
  if (args_ok) call read_arg(1, 1, 4096, 64, width, args_ok)
  if (args_ok) call read_arg(2, 1, 1000000, 50, iters, args_ok)
  if (.not. args_ok) then
    ! Every rank sees the same arguments, so all of them leave here together.
    if (rank == 0) write (error_unit, '(a)') 'error: bad arguments', 'usage: '//usage
    call MPI_FINALIZE(ierr)
    stop 2, quiet=.true.
  end if

  left = mod(rank - 1 + nprocs, nprocs)
  right = mod(rank + 1, nprocs)

  ! Column j of the block is global column rank*width + j - 1; columns 0 and width+1 are the
  ! ghosts filled from the neighbours. Rows wrap around locally (periodic, no communication).
  allocate (u(width, 0:width + 1), next(width, 0:width + 1))
  allocate (send_left(width), send_right(width), recv_left(width), recv_right(width))
  do j = 1, width
    do i = 1, width
      u(i, j) = initial_value(int(i - 1, 8), int(rank, 8) * width + j - 1)
    end do
  end do

  ok = .true.
  previous_residual = 0.0_dp
  do it = 1, iters
    send_left = u(:, 1)
    send_right = u(:, width)
    call MPI_IRECV(recv_left, width, MPI_DOUBLE_PRECISION, left, tag_rightwards, &
                   MPI_COMM_WORLD, requests(1), ierr)
    call MPI_IRECV(recv_right, width, MPI_DOUBLE_PRECISION, right, tag_leftwards, &
                   MPI_COMM_WORLD, requests(2), ierr)
    call MPI_ISEND(send_left, width, MPI_DOUBLE_PRECISION, left, tag_leftwards, &
                   MPI_COMM_WORLD, requests(3), ierr)
    call MPI_ISEND(send_right, width, MPI_DOUBLE_PRECISION, right, tag_rightwards, &
                   MPI_COMM_WORLD, requests(4), ierr)
    call MPI_WAITALL(4, requests, MPI_STATUSES_IGNORE, ierr)
    u(:, 0) = recv_left
    u(:, width + 1) = recv_right

    local_residual = 0.0_dp
    do j = 1, width
      do i = 1, width
        im = merge(width, i - 1, i == 1)
        ip = merge(1, i + 1, i == width)
        flow = u(im, j) + u(ip, j) + u(i, j - 1) + u(i, j + 1) - 4.0_dp * u(i, j)
        next(i, j) = u(i, j) + weight * flow
        local_residual = local_residual + (weight * flow)**2
      end do
    end do
    u(:, 1:width) = next(:, 1:width)

    call MPI_ALLREDUCE(local_residual, residual, 1, MPI_DOUBLE_PRECISION, MPI_SUM, &
                       MPI_COMM_WORLD, ierr)
    ! Relative slack only for rounding; a real increase is far larger.
    if (it > 1 .and. residual > previous_residual * (1.0_dp + 1.0e-9_dp)) ok = .false.
    previous_residual = residual
  end do

  local_sum = sum(u(:, 1:width))
  global_sum = 0.0_dp
  call MPI_REDUCE(local_sum, global_sum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, &
                  MPI_COMM_WORLD, ierr)

  if (rank == 0) then
    ! The expected total, from the formula rather than from any rank's data.
    expected = 0.0_dp
    do gj = 0, int(nprocs, 8) * width - 1
      do gi = 0, width - 1
        expected = expected + initial_value(gi, gj)
      end do
    end do
    if (abs(global_sum - expected) > 1.0e-9_dp * max(1.0_dp, abs(expected))) ok = .false.
    if (ok) then
      write (output_unit, '(a)') 'SUCCESS'
    else
      write (output_unit, '(a)') 'FAIL'
    end if
    flush (output_unit)
  end if

  deallocate (u, next, send_left, send_right, recv_left, recv_right)
  call MPI_FINALIZE(ierr)
  ! Only rank 0 knows the verdict, so only rank 0 can fail (mpirun then fails as a whole).
  if (rank == 0 .and. .not. ok) stop 1, quiet=.true.

contains

  ! Initial value of global cell (row gi, column gj): small integers, so sums start exact.
  pure real(dp) function initial_value(gi, gj)
    integer(kind=8), intent(in) :: gi, gj
    initial_value = real(mod(gi * 13 + gj * 7, 17_8), dp)
  end function initial_value

  ! Reads argument `index` as a decimal integer in [lo, hi], or `fallback` when it is absent.
  ! Strict on purpose (digits only) so that every rank rejects the same bad command line.
  subroutine read_arg(index, lo, hi, fallback, value, good)
    integer, intent(in) :: index, lo, hi, fallback
    integer, intent(out) :: value
    logical, intent(out) :: good
    character(len=32) :: text
    integer :: length, status, k, ios

    value = fallback
    good = .true.
    if (index > command_argument_count()) return
    call get_command_argument(index, text, length, status)
    good = status == 0 .and. length >= 1 .and. length <= 9
    if (.not. good) return
    do k = 1, length
      if (index_of_digit(text(k:k)) < 0) good = .false.
    end do
    if (.not. good) return
    read (text(1:length), *, iostat=ios) value
    good = ios == 0 .and. value >= lo .and. value <= hi
  end subroutine read_arg

  pure integer function index_of_digit(c)
    character, intent(in) :: c
    index_of_digit = index('0123456789', c) - 1
  end function index_of_digit

end program halo
