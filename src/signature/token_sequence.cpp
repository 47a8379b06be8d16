#include "signature/token_sequence.hpp"

#include <unordered_map>

namespace p3s::signature {

EventToken make_token(const core::Event& event, const core::RankTrace& trace,
                      const CommShapes& shapes) {
  const std::int32_t rank = trace.rank;
  const std::int32_t n = trace.nprocs;
  EventToken t;
  t.op = event.op;
  t.dst = relative_rank(event.dst, rank, n);
  t.tag = event.tag;
  t.bytes = event.bytes;
  t.src = relative_rank(event.src, rank, n);
  t.rtag = event.rtag;
  t.rbytes = event.rbytes;
  t.comm = shapes.shape_of(event.comm);
  t.root = relative_rank(event.root, rank, n);
  if (event.op == core::Op::Wait || event.op == core::Op::Waitall ||
      event.op == core::Op::Startall) {
    t.requests = static_cast<std::int32_t>(event.requests.size());
  }
  return t;
}

EventToken structure(EventToken token) {
  token.bytes = 0;
  token.rbytes = 0;
  return token;
}

bool is_empty_poll(const core::Event& event) {
  switch (event.op) {
    case core::Op::Iprobe:
      return true;
    case core::Op::Test:
    case core::Op::Testany:
    case core::Op::Testall:
    case core::Op::Testsome:
      return event.requests.empty();
    default:
      return false;
  }
}

TokenSequence tokenize(const core::RankTrace& trace, const CommShapes& shapes) {
  TokenSequence seq;
  seq.ids.reserve(trace.events.size());
  seq.units.reserve(trace.events.size());
  std::unordered_map<EventToken, std::uint32_t, EventTokenHash> index;
  std::size_t first = 0;
  const std::size_t count = trace.events.size();
  for (std::size_t i = 0; i < count; ++i) {
    // A trailing run of polls with nothing after it stays, as its last poll.
    if (is_empty_poll(trace.events[i]) && i + 1 < count) continue;
    const EventToken token = structure(make_token(trace.events[i], trace, shapes));
    auto [it, inserted] = index.try_emplace(token, static_cast<std::uint32_t>(seq.tokens.size()));
    if (inserted) seq.tokens.push_back(token);
    seq.ids.push_back(it->second);
    seq.units.push_back({first, i});
    first = i + 1;
  }
  return seq;
}

}  // namespace p3s::signature
