#include "core/trace_format.hpp"

#include <gtest/gtest.h>

#include "core/format_error.hpp"

namespace p3s::core {
namespace {

TraceHeader header(int rank, int nprocs, std::vector<std::string> counters = {}) {
  return TraceHeader{rank,
                     nprocs,
                     "nodeA",
                     std::move(counters),
                     "CLOCK_MONOTONIC",
                     "CLOCK_THREAD_CPUTIME_ID",
                     2000,
                     1700000000000000000};
}

Event p2p(Op op, std::int64_t t0, std::int64_t t1, std::int32_t dst, std::int32_t src,
          std::int64_t bytes, std::int64_t req = kNone) {
  Event e;
  e.op = op;
  e.t_start = t0;
  e.t_end = t1;
  e.burst_cpu = t0 / 20;  // within every burst's wall time in these traces
  if (dst != kNone) {
    e.dst = dst;
    e.tag = 7;
    e.bytes = bytes;
  }
  if (src != kNone) {
    e.src = src;
    e.rtag = 7;
    e.rbytes = bytes;
  }
  e.req = req;
  return e;
}

// A small, valid rank trace with the world and self communicators.
std::string sample_trace(int counters = 0) {
  std::vector<std::string> names;
  for (int i = 0; i < counters; ++i) names.push_back("C" + std::to_string(i));
  std::string text;
  append_header(text, header(1, 4, names));
  append_comm(text, {0, {0, 1, 2, 3}});
  append_comm(text, {1, {1}});
  Event s = p2p(Op::Isend, 100, 110, 2, kNone, 64, 0);
  s.counters = {11, 22, 33};
  append_event(text, s, counters);
  append_event(text, p2p(Op::Irecv, 120, 125, kNone, kAnySource, 64, 1), counters);
  Event w = p2p(Op::Waitall, 200, 300, kNone, kNone, 0);
  append_event(text, w, counters);
  append_request(text, {0, true, 2, 7, 64});
  append_request(text, {1, false, 3, 9, 48});
  Event f;
  f.op = Op::Finalize;
  f.t_start = f.t_end = 400;
  append_event(text, f, counters);
  append_end(text, TraceEnd::Complete, 0, 4);
  return text;
}

TEST(TraceFormat, RoundTripKeepsEveryField) {
  RankTrace t = parse_rank_trace(sample_trace(), "r1");
  EXPECT_EQ(t.rank, 1);
  EXPECT_EQ(t.nprocs, 4);
  EXPECT_EQ(t.host, "nodeA");
  EXPECT_FALSE(t.has_counters());
  EXPECT_EQ(t.cpu_min_ns, 2000);
  ASSERT_EQ(t.comms.size(), 2u);
  EXPECT_EQ(t.comms[0].members, (std::vector<std::int32_t>{0, 1, 2, 3}));
  ASSERT_EQ(t.events.size(), 4u);
  EXPECT_EQ(t.events[0].op, Op::Isend);
  EXPECT_EQ(t.events[0].dst, 2);
  EXPECT_EQ(t.events[0].bytes, 64);
  EXPECT_EQ(t.events[0].burst_cpu, 5);
  EXPECT_EQ(t.events[0].counters[0], -1);  // no counter columns written
  EXPECT_EQ(t.events[2].requests.size(), 2u);
  EXPECT_EQ(t.end, TraceEnd::Complete);
  EXPECT_EQ(t.burst_wall(1), 10);
}

TEST(TraceFormat, CountersRoundTripWhenDeclared) {
  RankTrace t = parse_rank_trace(sample_trace(3), "r1");
  EXPECT_EQ(t.counter_names, (std::vector<std::string>{"C0", "C1", "C2"}));
  EXPECT_EQ(t.events[0].counters, (std::array<std::int64_t, 3>{11, 22, 33}));
}

TEST(TraceFormat, WildcardReceiveLearnsItsSourceFromCompletion) {
  RankTrace t = parse_rank_trace(sample_trace(), "r1");
  EXPECT_EQ(t.events[1].src, 3);
  EXPECT_EQ(t.events[1].rtag, 9);
  EXPECT_EQ(t.events[1].rbytes, 48);
}

TEST(TraceFormat, PersistentStartTakesTheMessageOfItsInit) {
  std::string text;
  append_header(text, header(0, 2));
  append_comm(text, {0, {0, 1}});
  append_event(text, p2p(Op::SendInit, 10, 11, 1, kNone, 256, 5), 0);
  Event start;
  start.op = Op::Start;
  start.t_start = 20;
  start.t_end = 21;
  start.req = 5;
  append_event(text, start, 0);
  append_end(text, TraceEnd::Complete, 0, 2);
  RankTrace t = parse_rank_trace(text, "p");
  EXPECT_EQ(t.events[1].dst, 1);
  EXPECT_EQ(t.events[1].bytes, 256);
}

void expect_error(const std::string& text, const std::string& where, const std::string& what,
                  ReadOptions options = {}) {
  try {
    parse_rank_trace(text, "rank-00001.p3st", options);
    FAIL() << "accepted bad input, expected: " << what;
  } catch (const FormatError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("rank-00001.p3st" + where), std::string::npos) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
  }
}

TEST(TraceFormat, RejectsAWrongVersion) {
  std::string text = sample_trace();
  text.replace(0, 11, "p3s-trace 9");
  expect_error(text, ":1:", "unsupported trace version '9'");
}

TEST(TraceFormat, RejectsAFileThatIsNotATrace) {
  expect_error("hello\n", ":1:", "not a p3s trace");
  expect_error("", ":", "empty file");
}

TEST(TraceFormat, RejectsAGarbageLineNamingItsLine) {
  std::string text = sample_trace();
  auto pos = text.find("irecv");
  text.insert(pos, "garbage here\n");
  // header is 7 lines, two comm lines, isend on 10: garbage on 11
  expect_error(text, ":11:", "unknown record 'garbage'");
}

TEST(TraceFormat, RejectsAFieldThatIsNotANumber) {
  std::string text = sample_trace();
  auto pos = text.find("isend 100");
  text.replace(pos, 9, "isend 1x0");
  expect_error(text, ":10:", "bad start time '1x0'");
}

TEST(TraceFormat, RejectsAPeerOutsideTheRun) {
  std::string text = sample_trace();
  auto pos = text.find("= 0 s 2");
  text.replace(pos, 7, "= 0 s 9");
  expect_error(text, ":13:", "peer 9 outside");
}

TEST(TraceFormat, TruncatedFileIsAnErrorUnlessAllowed) {
  std::string text = sample_trace();
  std::string cut = text.substr(0, text.find("waitall") + 10);  // mid-line
  expect_error(cut, ":12:", "truncated");
  RankTrace t = parse_rank_trace(cut, "r", {.allow_truncated = true});
  EXPECT_EQ(t.end, TraceEnd::Truncated);
  EXPECT_EQ(t.events.size(), 2u);

  std::string no_end = text.substr(0, text.find("end complete"));
  expect_error(no_end, ":", "no end line");
}

TEST(TraceFormat, EndCountMustMatch) {
  std::string text = sample_trace();
  text.replace(text.find("end complete 4"), 14, "end complete 5");
  expect_error(text, ":16:", "counts 5 events but the file holds 4");
}

TEST(TraceFormat, AbortAndSignalAreReadableButMarked) {
  std::string text = sample_trace();
  text.replace(text.find("end complete 4"), 14, "end signal 11 4");
  RankTrace t = parse_rank_trace(text, "r");
  EXPECT_EQ(t.end, TraceEnd::Signalled);
  EXPECT_EQ(t.end_signal, 11);
}

TEST(TraceFormat, CommunicatorMustBeDefinedBeforeUse) {
  std::string text;
  append_header(text, header(0, 2));
  append_comm(text, {0, {0, 1}});
  Event e = p2p(Op::Send, 1, 2, 1, kNone, 8);
  e.comm = 3;
  append_event(text, e, 0);
  append_end(text, TraceEnd::Complete, 0, 1);
  expect_error(text, ":9:", "communicator 3 used before its 'comm' line");
}

TEST(TraceFormat, RankFileNamesSortByRank) {
  EXPECT_EQ(rank_trace_file_name(12), "rank-00012.p3st");
  EXPECT_LT(rank_trace_file_name(9), rank_trace_file_name(10));
}

}  // namespace
}  // namespace p3s::core
