#pragma once
// How alike two phases are, from what they do: the score by which phases are related across
// the ranks of a run (phase_relation) and, with peers left out, across runs (the model).
#include <cstdint>
#include <string>
#include <vector>

#include "core/op.hpp"
#include "signature/event_token.hpp"

namespace p3s::signature {

// A call as it stays from rank to rank and from one n to another: the operation, its tags,
// its communicator's shape index, whether it is rooted. Peers and sizes are left out.
struct CallKind {
  core::Op op = core::Op::Barrier;
  std::int32_t tag = -1;
  std::int32_t rtag = -1;
  bool rooted = false;
  bool world = true;
  bool operator==(const CallKind&) const = default;
};

CallKind call_kind(const EventToken& token);

// The calls of one repetition with runs of the same call counted once: the border ranks of a
// stencil post fewer receives than the inner ranks, in the same order, and a phase's
// exchanges multiply with the process grid (4 swaps at n = 4, 12 at n = 8) in the same order.
std::vector<CallKind> call_outline(const std::vector<EventToken>& events);

// 2 |LCS| / (|a| + |b|): 1 for the same outline, 0 for nothing in common.
double outline_similarity(const std::vector<CallKind>& a, const std::vector<CallKind>& b);

// What two phases share, as the evidence for relating them.
struct Likeness {
  double outline = 0;       // outline_similarity
  bool same_calls = false;  // the same calls with the same peers (relative), sizes aside
  bool same_weight = false;
  bool repeated = false;     // the shared weight is above 1: a loop, not a one-off
  bool same_length = false;  // as many calls per repetition
  bool close_sizes = false;  // total bytes per repetition within a factor 1.5
  // A score to maximise over an alignment, 0 when the two cannot be the same phase: when their
  // outlines share less than half and their weights differ, or share nothing and are not the
  // same loop (the corners of a wavefront: one only sends, the other only receives, both as
  // often as the inner ranks).
  double score() const;
  std::string reason() const;  // "same calls", "same outline, same weight", ...
};

struct PhaseView {
  const std::vector<EventToken>* events = nullptr;
  std::vector<CallKind> outline;
  std::int64_t weight = 0;
  double bytes = 0;  // sent and received per repetition
};

PhaseView view_of(const std::vector<EventToken>& events, std::int64_t weight);
// Same calls compares relative peers, which only mean the same within one run.
Likeness likeness(const PhaseView& a, const PhaseView& b, bool compare_peers);

}  // namespace p3s::signature
