#pragma once
// Where an MPI launcher puts ranks: k ranks to a node (host), in blocks or round-robin. The
// simulator places its SMPI processes with it, and the Synthetic Signature (replay_mpi) keeps
// the application's placement at N with it.
#include <cstdint>
#include <string_view>

namespace p3s::core {

// Block: ranks r..r+k-1 share a node (node r / k). Cyclic: ranks are dealt round-robin over
// the nodes used (node r % ceil(nprocs / k)).
enum class Mapping : std::uint8_t { Block, Cyclic };

Mapping mapping_from_name(std::string_view name);  // "block" | "cyclic"
std::string_view mapping_name(Mapping mapping);

// Nodes that `nprocs` ranks at `per_node` to a node occupy: ceil(nprocs / per_node).
std::int64_t nodes_used(std::int64_t nprocs, std::int64_t per_node);
// The node of `rank` among them.
std::int64_t node_of_rank(std::int64_t rank, std::int64_t nprocs, std::int64_t per_node,
                          Mapping mapping);

}  // namespace p3s::core
