#!/usr/bin/env bash
# Installs everything p3s needs to build, test and run on Debian 12.
set -euo pipefail
packages=(
  build-essential cmake pkg-config gfortran clang-format
  clang-14 libclang-rt-14-dev clang-tidy
  libopenmpi-dev openmpi-bin
  mpich libmpich-dev
  libsimgrid-dev simgrid
  libpapi-dev papi-tools
  libeigen3-dev libboost-program-options-dev nlohmann-json3-dev libfmt-dev
  libgtest-dev libbenchmark-dev libpugixml-dev libjemalloc-dev
  time bc
  lammps
)
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${packages[@]}"
# MPICH is there for the tracer's MPICH test only (tests/mpich). Both register the mpicc and
# mpirun alternatives, Open MPI at the higher priority; set them explicitly anyway, so that
# mpicc, mpirun and CMake's FindMPI always mean Open MPI whatever was installed when.
$sudo update-alternatives --set mpi /usr/bin/mpicc.openmpi
$sudo update-alternatives --set mpirun /usr/bin/mpirun.openmpi
