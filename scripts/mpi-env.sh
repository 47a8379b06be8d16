# Sourced by the scripts: lets Open MPI run as root (containers, CI) and place more ranks than
# cores, which the small traced runs need on a laptop or a 2-core CI machine.
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OMPI_MCA_rmaps_base_oversubscribe=1
# Loopback only: no network probing on machines with odd interfaces.
export OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
# Containers often forbid the ptrace-based single-copy path between ranks.
export OMPI_MCA_btl_vader_single_copy_mechanism=none
