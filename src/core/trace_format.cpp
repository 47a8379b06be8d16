#include "core/trace_format.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>
#include <unordered_map>

#include "core/checked_math.hpp"
#include "core/format_error.hpp"
#include "core/rank_list.hpp"
#include "core/text_file.hpp"

namespace p3s::core {
namespace {

void append_int(std::string& out, std::int64_t value) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, static_cast<std::size_t>(end - buf));
}

void append_field(std::string& out, std::int64_t value) {
  out.push_back(' ');
  append_int(out, value);
}

// The space-separated integer fields of one line, formatted on the stack and appended in one
// go: the tracer writes a line per MPI call, and one append per line instead of one per field
// keeps that cheap.
class LineFields {
 public:
  void add(std::int64_t value) {
    *end_++ = ' ';
    end_ = std::to_chars(end_, buf_ + sizeof buf_, value).ptr;
  }
  void append_line_to(std::string& out) {
    *end_++ = '\n';
    out.append(buf_, static_cast<std::size_t>(end_ - buf_));
  }

 private:
  char buf_[16 * 21 + 1];  // up to 16 fields of a space and at most 20 characters, a newline
  char* end_ = buf_;
};

std::string_view end_word(TraceEnd end) {
  switch (end) {
    case TraceEnd::Complete:
      return "complete";
    case TraceEnd::Aborted:
      return "abort";
    case TraceEnd::Signalled:
      return "signal";
    case TraceEnd::Truncated:
      break;
  }
  return "truncated";
}

// Splits a line on single spaces; returns the number of fields (at most `max`, or max+1 to
// signal "too many").
std::size_t split(std::string_view line, std::string_view* fields, std::size_t max) {
  std::size_t n = 0;
  std::size_t pos = 0;
  while (pos <= line.size()) {
    std::size_t next = line.find(' ', pos);
    if (next == std::string_view::npos) next = line.size();
    if (n == max) return max + 1;
    fields[n++] = line.substr(pos, next - pos);
    pos = next + 1;
  }
  return n;
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& name, const ReadOptions& options)
      : text_(text), name_(name), options_(options) {}

  RankTrace parse() {
    // An event line is rarely shorter than 40 bytes: one allocation for the whole file.
    trace_.events.reserve(text_.size() / 40);
    parse_header();
    parse_body();
    resolve_requests();
    return std::move(trace_);
  }

 private:
  [[noreturn]] void fail(const std::string& reason) const {
    throw FormatError(name_, line_no_, reason);
  }

  // Next line without its newline; false at end of text. Sets last_line_complete_.
  bool next_line(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    std::size_t nl = text_.find('\n', pos_);
    last_line_complete_ = nl != std::string_view::npos;
    if (!last_line_complete_) nl = text_.size();
    line = text_.substr(pos_, nl - pos_);
    pos_ = nl + 1;
    ++line_no_;
    return true;
  }

  std::int64_t to_int(std::string_view field, const char* what) const {
    std::int64_t value = 0;
    auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (ec != std::errc() || ptr != field.data() + field.size() || field.empty()) {
      fail(std::string("bad ") + what + " '" + std::string(field) + "'");
    }
    return value;
  }

  std::int32_t to_int32(std::string_view field, const char* what) const {
    std::int64_t v = to_int(field, what);
    if (v < INT32_MIN || v > INT32_MAX) fail(std::string(what) + " out of range");
    return static_cast<std::int32_t>(v);
  }

  // An integer field that must lie in [min, max].
  std::int64_t to_int_in(std::string_view field, const char* what, std::int64_t min,
                         std::int64_t max) const {
    const std::int64_t v = to_int(field, what);
    if (v < min || v > max) {
      fail(std::string(what) + " " + std::to_string(v) + " outside " + std::to_string(min) + ".." +
           std::to_string(max));
    }
    return v;
  }

  std::int64_t to_bytes(std::string_view field, const char* what) const {
    return to_int_in(field, what, 0, kMaxBytes);
  }

  std::string_view header_value(std::string_view key) {
    std::string_view line;
    if (!next_line(line)) fail("file ends inside the header, expected '" + std::string(key) + "'");
    if (line.substr(0, key.size()) != key || line.size() <= key.size() || line[key.size()] != ' ') {
      fail("expected header line '" + std::string(key) + " ...'");
    }
    return line.substr(key.size() + 1);
  }

  void parse_header() {
    std::string_view line;
    if (!next_line(line)) fail("empty file, not a p3s trace");
    if (line != kTraceMagic && line != kTraceMagicV1) {
      if (line.substr(0, 10) == "p3s-trace ")
        fail("unsupported trace version '" + std::string(line.substr(10)) +
             "' (this p3s reads versions 1 and 2)");
      fail("not a p3s trace (first line must be '" + std::string(kTraceMagic) + "')");
    }
    trace_.rank = to_int32(header_value("rank"), "rank");
    trace_.nprocs = to_int32(header_value("nprocs"), "nprocs");
    if (trace_.nprocs <= 0 || trace_.rank < 0 || trace_.rank >= trace_.nprocs)
      fail("rank outside 0..nprocs-1");
    trace_.host = std::string(header_value("host"));
    std::string_view counters = header_value("counters");
    if (counters != "none") {
      std::istringstream names{std::string(counters)};
      for (std::string n; names >> n;) trace_.counter_names.push_back(n);
      if (trace_.counter_names.size() > kCounterSlots) fail("more than 3 counters");
    }
    std::string_view clock = header_value("clock");
    std::string_view fields[4];
    if (split(clock, fields, 3) != 3) fail("clock line needs wall=, cpu= and cpu_min_ns=");
    auto value_of = [&](std::string_view f, std::string_view key) {
      if (f.substr(0, key.size()) != key) fail("clock line: expected '" + std::string(key) + "'");
      return f.substr(key.size());
    };
    trace_.wall_clock = std::string(value_of(fields[0], "wall="));
    timed_ = trace_.wall_clock != kUntimedWallClock;
    trace_.cpu_clock = std::string(value_of(fields[1], "cpu="));
    trace_.cpu_min_ns = to_int_in(value_of(fields[2], "cpu_min_ns="), "cpu_min_ns", 0, INT64_MAX);
    trace_.start_unix_ns = to_int_in(header_value("start_unix_ns"), "start_unix_ns", 0, INT64_MAX);
  }

  void parse_comm(std::string_view rest) {
    std::string_view f[4];
    if (split(rest, f, 3) != 3) fail("comm line needs: id size members");
    Communicator comm;
    comm.id = static_cast<std::int32_t>(to_int_in(f[0], "communicator id", 0, INT32_MAX));
    const std::int64_t size = to_int_in(f[1], "communicator size", 1, trace_.nprocs);
    try {
      comm.members = parse_rank_list(f[2], size);
    } catch (const std::invalid_argument& e) {
      fail(std::string("communicator members: ") + e.what());
    }
    if (static_cast<std::int64_t>(comm.members.size()) != size)
      fail("communicator size does not match its member list");
    for (auto m : comm.members) {
      if (m < 0 || m >= trace_.nprocs)
        fail("communicator member " + std::to_string(m) + " outside 0..nprocs-1");
    }
    std::vector<std::int32_t> sorted = comm.members;
    std::sort(sorted.begin(), sorted.end());
    if (auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end())
      fail("communicator member " + std::to_string(*twice) + " listed twice");
    if (comm.id == 0 && size != trace_.nprocs)
      fail("communicator 0 is MPI_COMM_WORLD and has all nprocs ranks");
    if (comm_index_.contains(comm.id))
      fail("communicator " + std::to_string(comm.id) + " defined twice");
    comm_index_[comm.id] = trace_.comms.size();
    trace_.comms.push_back(std::move(comm));
  }

  void parse_dims_create(std::string_view rest) {
    constexpr std::int64_t kMaxDims = 16;
    std::string_view f[2 + 2 * kMaxDims + 1];
    const std::size_t count = split(rest, f, std::size(f));
    if (count < 2) fail("dims_create line needs: nnodes ndims given... dims...");
    DimsCreate d;
    d.nnodes = static_cast<std::int32_t>(to_int_in(f[0], "nnodes", 1, INT32_MAX));
    const std::int64_t ndims = to_int_in(f[1], "ndims", 1, kMaxDims);
    if (count != static_cast<std::size_t>(2 + 2 * ndims))
      fail("dims_create line needs ndims given and ndims chosen extents");
    std::int64_t product = 1;
    for (std::int64_t k = 0; k < ndims; ++k) {
      d.given.push_back(
          static_cast<std::int32_t>(to_int_in(f[2 + k], "given extent", 0, d.nnodes)));
      d.dims.push_back(
          static_cast<std::int32_t>(to_int_in(f[2 + ndims + k], "extent", 1, d.nnodes)));
      product *= d.dims.back();
      if (product > d.nnodes) break;
    }
    if (product != d.nnodes) fail("dims_create: the extents do not multiply to nnodes");
    trace_.dims_created.push_back(std::move(d));
  }

  void parse_request(std::string_view rest) {
    if (trace_.events.empty()) fail("request record before any event");
    Event& e = trace_.events.back();
    OpKind kind = op_kind(e.op);
    if (kind != OpKind::Completion && e.op != Op::Startall)
      fail("request record after '" + std::string(op_name(e.op)) + "', which takes none");
    std::string_view f[6];
    if (split(rest, f, 5) != 5) fail("request record needs: req s|r peer tag bytes");
    RequestRecord r;
    r.req = to_int_in(f[0], "request id", 0, INT64_MAX);
    if (f[1] != "s" && f[1] != "r") fail("request direction must be s or r");
    r.send = f[1] == "s";
    r.peer = to_int32(f[2], "peer");
    r.tag = to_int32(f[3], "tag");
    r.bytes = to_bytes(f[4], "bytes");
    check_peer(r.peer, "peer", r.send ? kNone : kAnySource);
    check_tag(r.tag, "tag", r.send ? kNone : kAnyTag);
    e.requests.push_back(r);
  }

  // A world rank, or one of the negative codes from `lowest` up (-1 none, -2 any source).
  void check_peer(std::int32_t peer, const char* what, std::int32_t lowest) const {
    if (peer < lowest || peer >= trace_.nprocs)
      fail(std::string(what) + " " + std::to_string(peer) + " outside 0..nprocs-1");
  }

  // MPI tags are non-negative; -1 means none and, on a receive, -2 any tag.
  void check_tag(std::int32_t tag, const char* what, std::int32_t lowest) const {
    if (tag < lowest) fail(std::string(what) + " " + std::to_string(tag) + " is not an MPI tag");
  }

  // What each kind of call may fill in: peers only on point-to-point calls, a root exactly on
  // rooted collectives, no bytes towards a peer that is not there.
  void check_fields(const Event& e) const {
    const OpKind kind = op_kind(e.op);
    const std::string op(op_name(e.op));
    if (kind != OpKind::PointToPoint && kind != OpKind::Persistent &&
        (e.dst != kNone || e.src != kNone))
      fail("'" + op + "' has no peer, but the line names one");
    // A rooted collective has its root, except on an intercommunicator's idle members (-1).
    if (is_rooted(e.op) ? e.root < (e.comm == 0 ? 0 : kNone) : e.root != kNone)
      fail(is_rooted(e.op) ? "'" + op + "' needs its root (a world rank)"
                           : "'" + op + "' has no root, but the line names one");
    if (kind == OpKind::PointToPoint || kind == OpKind::Persistent) {
      if (e.dst == kNone && e.bytes != 0) fail("bytes sent without a destination");
      if (e.src == kNone && e.rbytes != 0) fail("bytes received without a source");
    }
    if (kind == OpKind::Completion || kind == OpKind::CommCreate || kind == OpKind::Finalize) {
      if (e.bytes != 0 || e.rbytes != 0)
        fail("'" + op + "' moves no bytes, but the line says it does");
    }
  }

  void parse_event(std::string_view line) {
    const std::size_t expected = 13 + (trace_.has_counters() ? trace_.counter_names.size() : 0);
    std::string_view f[17];
    std::size_t n = split(line, f, 16);
    auto op = op_from_name(f[0]);
    if (!op) fail("unknown record '" + std::string(f[0]) + "'");
    if (n != expected)
      fail("event '" + std::string(f[0]) + "' has " + std::to_string(n) + " fields, expected " +
           std::to_string(expected));
    Event e;
    e.op = *op;
    e.t_start = to_int_in(f[1], "start time", 0, INT64_MAX);
    e.t_end = to_int_in(f[2], "end time", 0, INT64_MAX);
    e.burst_cpu = to_int_in(f[3], "burst cpu time", 0, INT64_MAX);
    e.dst = to_int32(f[4], "destination");
    e.tag = to_int32(f[5], "tag");
    e.bytes = to_bytes(f[6], "bytes");
    e.src = to_int32(f[7], "source");
    e.rtag = to_int32(f[8], "receive tag");
    e.rbytes = to_bytes(f[9], "received bytes");
    e.comm = to_int32(f[10], "communicator");
    e.root = to_int32(f[11], "root");
    e.req = to_int_in(f[12], "request id", kNone, INT64_MAX);
    for (std::size_t i = 13; i < n; ++i)
      e.counters[i - 13] = to_int_in(f[i], "counter", -1, INT64_MAX);  // -1: not read
    if (e.t_end < e.t_start) fail("event ends before it starts");
    const std::int64_t previous_end = trace_.events.empty() ? 0 : trace_.events.back().t_end;
    if (e.t_start < previous_end) fail("event starts before the previous one ended");
    // One thread's CPU time cannot exceed the wall time it ran in (the tracer clamps to it).
    if (timed_ && e.burst_cpu > e.t_start - previous_end)
      fail("burst cpu time " + std::to_string(e.burst_cpu) + " exceeds the burst's wall time " +
           std::to_string(e.t_start - previous_end));
    check_peer(e.dst, "destination", kNone);
    check_peer(e.src, "source", kAnySource);
    check_peer(e.root, "root", kNone);
    check_tag(e.tag, "tag", kNone);
    check_tag(e.rtag, "receive tag", kAnyTag);
    check_fields(e);
    if (!comm_index_.contains(e.comm))
      fail("communicator " + std::to_string(e.comm) + " used before its 'comm' line");
    trace_.events.push_back(std::move(e));
  }

  void parse_end(std::string_view rest) {
    std::string_view f[4];
    std::size_t n = split(rest, f, 3);
    std::int64_t count = 0;
    if (n == 2 && f[0] == "complete") {
      trace_.end = TraceEnd::Complete;
      count = to_int(f[1], "event count");
    } else if (n == 2 && f[0] == "abort") {
      trace_.end = TraceEnd::Aborted;
      count = to_int(f[1], "event count");
    } else if (n == 3 && f[0] == "signal") {
      trace_.end = TraceEnd::Signalled;
      trace_.end_signal = static_cast<int>(to_int_in(f[1], "signal", 1, 64));
      count = to_int(f[2], "event count");
    } else {
      fail("end line must be 'end complete N', 'end abort N' or 'end signal SIG N'");
    }
    if (count != static_cast<std::int64_t>(trace_.events.size())) {
      fail("end line counts " + std::to_string(count) + " events but the file holds " +
           std::to_string(trace_.events.size()));
    }
  }

  void parse_body() {
    std::string_view line;
    bool ended = false;
    while (next_line(line)) {
      if (ended) fail("text after the end line");
      if (!last_line_complete_ && !options_.allow_truncated)
        fail("last line is cut short (no newline): the trace is truncated");
      if (!last_line_complete_) break;
      if (line.starts_with("= ")) {
        parse_request(line.substr(2));
      } else if (line.starts_with("comm ")) {
        parse_comm(line.substr(5));
      } else if (line.starts_with("dims_create ")) {
        parse_dims_create(line.substr(12));
      } else if (line.starts_with("end ")) {
        parse_end(line.substr(4));
        ended = true;
      } else {
        parse_event(line);
      }
    }
    if (!ended) {
      if (!options_.allow_truncated)
        fail("no end line: the trace is truncated (the program or the tracer stopped early)");
      trace_.end = TraceEnd::Truncated;
    }
    if (!comm_index_.contains(0)) fail("MPI_COMM_WORLD (communicator 0) is not defined");
  }

  // Wildcard receives learn their source at completion; persistent starts take the message
  // of their init.
  void resolve_requests() {
    std::unordered_map<std::int64_t, std::size_t> open_recv;
    std::unordered_map<std::int64_t, std::size_t> inits;
    for (std::size_t i = 0; i < trace_.events.size(); ++i) {
      Event& e = trace_.events[i];
      if (e.op == Op::SendInit || e.op == Op::RecvInit) inits[e.req] = i;
      if (e.op == Op::Start) {
        auto it = inits.find(e.req);
        if (it == inits.end())
          throw FormatError(name_, 0,
                            "event " + std::to_string(i) + ": start of request " +
                                std::to_string(e.req) + " that no send_init/recv_init created");
        const Event& init = trace_.events[it->second];
        e.dst = init.dst;
        e.tag = init.tag;
        e.bytes = init.bytes;
        e.src = init.src;
        e.rtag = init.rtag;
        e.rbytes = init.rbytes;
      }
      if (e.op == Op::Irecv || (e.op == Op::Start && e.src != kNone)) open_recv[e.req] = i;
      for (const RequestRecord& r : e.requests) {
        if (r.send) continue;
        auto it = open_recv.find(r.req);
        if (it == open_recv.end()) continue;
        Event& recv = trace_.events[it->second];
        recv.src = r.peer;
        recv.rtag = r.tag;
        recv.rbytes = r.bytes;
        open_recv.erase(it);
      }
    }
  }

  std::string_view text_;
  const std::string& name_;
  ReadOptions options_;
  std::size_t pos_ = 0;
  std::size_t line_no_ = 0;
  bool last_line_complete_ = true;
  bool timed_ = true;  // events carry times (not an ST4NP's logical events)
  RankTrace trace_;
  std::unordered_map<std::int32_t, std::size_t> comm_index_;
};

}  // namespace

std::string rank_trace_file_name(int rank) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "rank-%05d.p3st", rank);
  return buf;
}

void append_header(std::string& out, const TraceHeader& h) {
  out.append(kTraceMagic).append("\nrank ");
  append_int(out, h.rank);
  out.append("\nnprocs ");
  append_int(out, h.nprocs);
  out.append("\nhost ").append(h.host.empty() ? "unknown" : h.host).append("\ncounters");
  if (h.counter_names.empty()) out.append(" none");
  for (const auto& name : h.counter_names) out.append(" ").append(name);
  out.append("\nclock wall=").append(h.wall_clock).append(" cpu=").append(h.cpu_clock);
  out.append(" cpu_min_ns=");
  append_int(out, h.cpu_min_ns);
  out.append("\nstart_unix_ns ");
  append_int(out, h.start_unix_ns);
  out.push_back('\n');
}

void append_comm(std::string& out, const Communicator& comm) {
  out.append("comm ");
  append_int(out, comm.id);
  append_field(out, static_cast<std::int64_t>(comm.members.size()));
  out.push_back(' ');
  append_rank_list(out, comm.members);
  out.push_back('\n');
}

void append_dims_create(std::string& out, const DimsCreate& d) {
  out.append("dims_create ");
  append_int(out, d.nnodes);
  append_field(out, static_cast<std::int64_t>(d.dims.size()));
  for (std::int32_t g : d.given) append_field(out, g);
  for (std::int32_t e : d.dims) append_field(out, e);
  out.push_back('\n');
}

void append_event(std::string& out, const Event& e, int counter_count) {
  LineFields fields;
  for (std::int64_t v : {e.t_start, e.t_end, e.burst_cpu}) fields.add(v);
  fields.add(e.dst);
  fields.add(e.tag);
  fields.add(e.bytes);
  fields.add(e.src);
  fields.add(e.rtag);
  fields.add(e.rbytes);
  fields.add(e.comm);
  fields.add(e.root);
  fields.add(e.req);
  for (int i = 0; i < std::min(counter_count, kCounterSlots); ++i) fields.add(e.counters[i]);
  out.append(op_name(e.op));
  fields.append_line_to(out);
}

void append_request(std::string& out, const RequestRecord& r) {
  out.append("= ");
  append_int(out, r.req);
  out.append(r.send ? " s" : " r");
  LineFields fields;
  fields.add(r.peer);
  fields.add(r.tag);
  fields.add(r.bytes);
  fields.append_line_to(out);
}

void append_end(std::string& out, TraceEnd end, int signal, std::int64_t event_count) {
  out.append("end ").append(end_word(end));
  if (end == TraceEnd::Signalled) append_field(out, signal);
  append_field(out, event_count);
  out.push_back('\n');
}

std::string rank_trace_text(const RankTrace& t) {
  std::string out;
  append_header(out, {t.rank, t.nprocs, t.host, t.counter_names, t.wall_clock, t.cpu_clock,
                      t.cpu_min_ns, t.start_unix_ns});
  for (const Communicator& c : t.comms) append_comm(out, c);
  for (const DimsCreate& d : t.dims_created) append_dims_create(out, d);
  const int counters = static_cast<int>(t.counter_names.size());
  for (const Event& e : t.events) {
    append_event(out, e, counters);
    for (const RequestRecord& r : e.requests) append_request(out, r);
  }
  if (t.end != TraceEnd::Truncated) {
    append_end(out, t.end, t.end_signal, static_cast<std::int64_t>(t.events.size()));
  }
  return out;
}

RankTrace parse_rank_trace(std::string_view text, const std::string& name,
                           const ReadOptions& options) {
  return Parser(text, name, options).parse();
}

RankTrace read_rank_trace(const std::filesystem::path& file, const ReadOptions& options) {
  return parse_rank_trace(read_text_file(file, "trace file"), file.string(), options);
}

}  // namespace p3s::core
