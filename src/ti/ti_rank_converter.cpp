#include "ti/ti_rank_converter.hpp"

#include <charconv>
#include <climits>
#include <cmath>
#include <numeric>
#include <string>
#include <string_view>

#include "core/checked_math.hpp"
#include "core/smpi_datatype.hpp"
#include "core/trace_format.hpp"
#include "ti/ti_requests.hpp"

namespace p3s::ti {
namespace {

// How the arguments of an action are laid out, and so how it is converted.
// clang-format off
enum class TiShape : std::uint8_t {
  // no MPI event
  Init, Finalize, Compute, Sleep, Ignored,
  // point to point
  Send, Recv, Start, SendRecv,
  // completion
  Wait, Test, WaitAll, WaitAny, TestUnnamed,
  // collectives
  Barrier, Bcast, Reduce, AllReduce, Gather, Scatter, AllGather, AllToAll,
  GatherV, ScatterV, AllGatherV, AllToAllV, ReduceScatter,
  // what the trace has lost
  Lost,
};
// clang-format on

struct TiActionSpec {
  std::string_view name;
  TiShape shape;
  core::Op op;
  std::string_view arguments;  // for error messages
};

// Every action SimGrid 3.32 writes (found by tracing programs that make every MPI call SMPI
// supports; the collectives' are kCollectiveSpecs below, named by core/op_table.hpp), plus those
// only its replay reads (comm_size, comm_split, comm_dup: it ignores them, and so does the import).
// MPI_Rsend and MPI_Irsend are written as send and isend, MPI_Sendrecv_replace as sendRecv,
// MPI_Alltoallw as alltoallv; MPI_Probe, MPI_Iprobe, MPI_Waitsome and communicator creation are not
// written at all.
constexpr TiActionSpec kSpecs[] = {
    {"init", TiShape::Init, core::Op::Finalize, "[ANY]"},
    {"finalize", TiShape::Finalize, core::Op::Finalize, ""},
    {"compute", TiShape::Compute, core::Op::Finalize, "FLOPS"},
    {"sleep", TiShape::Sleep, core::Op::Finalize, "SECONDS"},
    {"location", TiShape::Ignored, core::Op::Finalize, "FILE LINE"},
    {"comm_size", TiShape::Ignored, core::Op::Finalize, "..."},
    {"comm_split", TiShape::Ignored, core::Op::Finalize, "..."},
    {"comm_dup", TiShape::Ignored, core::Op::Finalize, "..."},
    {"send", TiShape::Send, core::Op::Send, "PEER TAG COUNT [TYPE]"},
    {"Ssend", TiShape::Send, core::Op::Ssend, "PEER TAG COUNT [TYPE]"},
    {"bsend", TiShape::Send, core::Op::Bsend, "PEER TAG COUNT [TYPE]"},
    {"isend", TiShape::Send, core::Op::Isend, "PEER TAG COUNT [TYPE]"},
    {"ISsend", TiShape::Send, core::Op::Issend, "PEER TAG COUNT [TYPE]"},
    {"ibsend", TiShape::Send, core::Op::Isend, "PEER TAG COUNT [TYPE]"},  // p3s has no ibsend
    {"recv", TiShape::Recv, core::Op::Recv, "PEER TAG COUNT [TYPE]"},
    {"irecv", TiShape::Recv, core::Op::Irecv, "PEER TAG COUNT [TYPE]"},
    {"Start", TiShape::Start, core::Op::Isend, "PEER TAG BYTES TYPE"},
    {"sendRecv", TiShape::SendRecv, core::Op::Sendrecv,
     "SENDCOUNT DST RECVCOUNT SRC [STYPE RTYPE]"},
    {"wait", TiShape::Wait, core::Op::Wait, "SRC DST TAG"},
    {"test", TiShape::Test, core::Op::Test, "SRC DST TAG"},
    {"waitall", TiShape::WaitAll, core::Op::Waitall, "COUNT"},
    {"waitAny", TiShape::WaitAny, core::Op::Waitany, "COUNT"},
    {"testany", TiShape::TestUnnamed, core::Op::Testany, ""},
    {"testall", TiShape::TestUnnamed, core::Op::Testall, ""},
    {"testsome", TiShape::TestUnnamed, core::Op::Testsome, ""},
    {"Startall", TiShape::Lost, core::Op::Startall, ""},
};

// How the action of a blocking collective lays out its arguments (both forms share it).
constexpr TiActionSpec collective_layout(core::Op op) {
  switch (op) {
    case core::Op::Barrier:
      return {{}, TiShape::Barrier, op, ""};
    case core::Op::Bcast:
      return {{}, TiShape::Bcast, op, "COUNT ROOT [TYPE]"};
    case core::Op::Reduce:
      return {{}, TiShape::Reduce, op, "COUNT FLOPS ROOT [TYPE]"};
    case core::Op::Allreduce:
    case core::Op::Scan:
    case core::Op::Exscan:
      return {{}, TiShape::AllReduce, op, "COUNT FLOPS [TYPE]"};
    case core::Op::Gather:
      return {{}, TiShape::Gather, op, "SENDCOUNT [RECVCOUNT] ROOT STYPE RTYPE"};
    case core::Op::Scatter:
      return {{}, TiShape::Scatter, op, "SENDCOUNT [RECVCOUNT] ROOT STYPE RTYPE"};
    case core::Op::Allgather:
      return {{}, TiShape::AllGather, op, "SENDCOUNT [RECVCOUNT] STYPE RTYPE"};
    case core::Op::Alltoall:
      return {{}, TiShape::AllToAll, op, "SENDCOUNT [RECVCOUNT] STYPE RTYPE"};
    case core::Op::Gatherv:
      return {{}, TiShape::GatherV, op, "SENDCOUNT RECVCOUNT*N ROOT STYPE RTYPE"};
    case core::Op::Scatterv:
      return {{}, TiShape::ScatterV, op, "SENDCOUNT*N RECVCOUNT ROOT STYPE RTYPE"};
    case core::Op::Allgatherv:
      return {{}, TiShape::AllGatherV, op, "SENDCOUNT RECVCOUNT*N STYPE RTYPE"};
    case core::Op::Alltoallv:
      return {
          {}, TiShape::AllToAllV, op, "SENDTOTAL SENDCOUNT*N RECVTOTAL RECVCOUNT*N STYPE RTYPE"};
    default:  // reduce_scatter(_block): SMPI writes both as reducescatter
      return {{}, TiShape::ReduceScatter, op, "RECVCOUNT*N FLOPS TYPE"};
  }
}

constexpr TiActionSpec named(std::string_view name, core::Op op, TiActionSpec layout) {
  layout.name = name;
  layout.op = op;
  return layout;
}

// The collectives' actions, by the names of the operation table: `ti` for the blocking form
// and "i" ti for the non-blocking one. Rows without one (alltoallw: "" and "i") never match,
// and of two rows with the same action (reducescatter) the first is the one read.
#define P3S_TI_COLLECTIVE_SPECS(Enum, IEnum, lower, CName, UPPER, rooted, bytes, ti, ...) \
  named(ti, core::Op::Enum, collective_layout(core::Op::Enum)),                           \
      named("i" ti, core::Op::IEnum, collective_layout(core::Op::Enum)),
constexpr TiActionSpec kCollectiveSpecs[] = {P3S_COLLECTIVE_OPS(P3S_TI_COLLECTIVE_SPECS)};
#undef P3S_TI_COLLECTIVE_SPECS

const TiActionSpec* find_spec(std::string_view name) {
  for (const auto& spec : kSpecs) {
    if (spec.name == name) return &spec;
  }
  for (const auto& spec : kCollectiveSpecs) {
    if (spec.name == name && !core::ti_action_name(spec.op).empty()) return &spec;
  }
  return nullptr;
}

// SMPI's replay reads counts without a type as bytes, unless `init` had an argument (a trace
// converted from MPE), then as doubles; SMPI 3.32 itself always writes the type.
constexpr std::string_view kByteType = "6";
constexpr std::string_view kDoubleType = "0";

constexpr std::string_view kSubCommunicator =
    "a collective on a sub-communicator? TI traces do not name communicators";

class RankConverter {
 public:
  RankConverter(const TiTrace& trace, int rank, const TiTiming& timing)
      : ti_(trace), rank_(rank), nprocs_(trace.nprocs()), timing_(timing) {
    out_.rank = rank;
    out_.nprocs = nprocs_;
    out_.host = "smpi";
    out_.wall_clock = core::kSyntheticWallClock;
    out_.cpu_clock = ti_cpu_clock(timing);
    core::Communicator world{0, std::vector<std::int32_t>(nprocs_)};
    std::iota(world.members.begin(), world.members.end(), 0);
    out_.comms = {world, core::Communicator{1, {rank}}};
  }

  core::RankTrace convert() {
    const std::vector<TiAction>& actions = ti_.ranks.at(rank_);
    for (const TiAction& a : actions) convert_action(a);
    if (!finalized_) {
      ti_.fail(actions.back(), "rank " + std::to_string(rank_) +
                                   "'s trace ends without 'finalize': the SMPI run stopped early");
    }
    // SMPI writes no wait for a request a test completed: a test that was the last word on
    // its request is the call that completed it.
    for (TiPendingRequest& p : requests_.take_all()) {
      if (p.tested_by) out_.events[*p.tested_by].requests.push_back(p.record);
    }
    return std::move(out_);
  }

 private:
  void convert_action(const TiAction& a) {
    const TiActionSpec* spec = find_spec(a.name);
    if (!spec) ti_.fail(a, "unknown TI action '" + a.name + "'");
    if (spec->shape == TiShape::Ignored) return;
    if (spec->shape != TiShape::Init && !initialized_)
      ti_.fail(a, "'" + a.name + "' before 'init'");
    if (finalized_) ti_.fail(a, "'" + a.name + "' after 'finalize'");
    switch (spec->shape) {
      case TiShape::Init:
        return init(a, *spec);
      case TiShape::Finalize:
        return finalize(a, *spec);
      case TiShape::Compute:
        return compute(a, *spec);
      case TiShape::Sleep:
        return sleep(a, *spec);
      case TiShape::Send:
        return send(a, *spec);
      case TiShape::Recv:
        return recv(a, *spec);
      case TiShape::Start:
        return start(a, *spec);
      case TiShape::SendRecv:
        return send_recv(a, *spec);
      case TiShape::Wait:
        return wait(a, *spec);
      case TiShape::Test:
        return test(a, *spec);
      case TiShape::WaitAll:
        return wait_all(a, *spec);
      case TiShape::WaitAny:
        return wait_any(a, *spec);
      case TiShape::TestUnnamed:
        return test_unnamed(a, *spec);
      case TiShape::Lost:
        return lost(a);
      default:
        return collective(a, *spec);
    }
  }

  // ---- argument checks ------------------------------------------------------------------

  [[noreturn]] void arity_error(const TiAction& a, const TiActionSpec& spec) const {
    ti_.fail(a, "'" + a.name + "' takes " +
                    (spec.arguments.empty() ? "no argument" : std::string(spec.arguments)) +
                    ", got " + std::to_string(a.args.size()) + " argument" +
                    (a.args.size() == 1 ? "" : "s"));
  }

  void arity(const TiAction& a, const TiActionSpec& spec, std::size_t min, std::size_t max) const {
    if (a.args.size() < min || a.args.size() > max) arity_error(a, spec);
  }

  std::int64_t integer(const TiAction& a, std::size_t i, const char* what) const {
    const std::string& text = a.args.at(i);
    std::int64_t value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size()) {
      ti_.fail(a, "'" + a.name + "': " + what + " must be an integer, not '" + text + "'");
    }
    return value;
  }

  std::int64_t count(const TiAction& a, std::size_t i, const char* what) const {
    std::int64_t value = integer(a, i, what);
    if (value < 0) ti_.fail(a, "'" + a.name + "': negative " + what);
    if (value > core::kMaxBytes)
      ti_.fail(a, "'" + a.name + "': " + what + " beyond what p3s accepts");
    return value;
  }

  // A non-negative amount SMPI prints as a floating-point number (flops, seconds, counts).
  double amount(const TiAction& a, std::size_t i, const char* what) const {
    const std::string& text = a.args.at(i);
    double value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(value) ||
        value < 0) {
      ti_.fail(a,
               "'" + a.name + "': " + what + " must be a non-negative number, not '" + text + "'");
    }
    return value;
  }

  std::int64_t type_size(const TiAction& a, std::size_t i) const {
    std::string_view id = i < a.args.size() ? std::string_view(a.args[i]) : default_type_;
    std::optional<std::int64_t> size = core::smpi_datatype_size(id);
    if (!size) {
      ti_.fail(
          a, "'" + a.name + "': datatype " + std::string(id) +
                 (id == "-1" ? " is a derived datatype, whose size SMPI's TI trace does not record"
                             : " is not one SMPI 3.32 writes"));
    }
    return *size;
  }

  std::int64_t bytes(const TiAction& a, std::size_t count_index, std::size_t type_index,
                     const char* what) const {
    return product(a, count(a, count_index, what), type_size(a, type_index));
  }

  // A volume in bytes from counts and sizes the file states: checked, never wrapped.
  std::int64_t product(const TiAction& a, std::int64_t x, std::int64_t y) const {
    const std::optional<std::int64_t> bytes = core::checked_mul(x, y);
    if (!bytes || *bytes > core::kMaxBytes) {
      ti_.fail(a, "'" + a.name + "' moves " + std::to_string(x) + " x " + std::to_string(y) +
                      " bytes, more than p3s accepts (" + std::to_string(core::kMaxBytes) + ")");
    }
    return *bytes;
  }

  // A world rank, or kTiUndefinedPeer when `undefined_ok`.
  std::int64_t peer(const TiAction& a, std::size_t i, const char* what, bool undefined_ok) const {
    std::int64_t value = integer(a, i, what);
    if ((value == kTiUndefinedPeer && undefined_ok) || (value >= 0 && value < nprocs_))
      return value;
    ti_.fail(a, "'" + a.name + "': " + what + " " + std::to_string(value) +
                    " is not a rank of this " + std::to_string(nprocs_) + "-rank run");
  }

  // A tag as p3s writes it: MPI_ANY_TAG becomes kAnyTag.
  std::int32_t tag(const TiAction& a, std::size_t i) const {
    std::int64_t value = integer(a, i, "TAG");
    if (value == kTiAnyTag) return core::kAnyTag;
    if (value < 0 || value > INT32_MAX) ti_.fail(a, "'" + a.name + "': TAG is not an MPI tag");
    return static_cast<std::int32_t>(value);
  }

  std::int32_t root(const TiAction& a, std::size_t i) const {
    return static_cast<std::int32_t>(peer(a, i, "root", false));
  }

  // Per-rank counts of a v-collective: exactly one per rank of the run.
  std::vector<std::int64_t> counts(const TiAction& a, std::size_t first, const char* what) const {
    std::vector<std::int64_t> values;
    values.reserve(static_cast<std::size_t>(nprocs_));
    for (int r = 0; r < nprocs_; ++r)
      values.push_back(count(a, first + static_cast<std::size_t>(r), what));
    return values;
  }

  std::int64_t sum(const TiAction& a, const std::vector<std::int64_t>& values) const {
    std::int64_t total = 0;
    for (const std::int64_t v : values) {
      const std::optional<std::int64_t> next = core::checked_add(total, v);
      if (!next || *next > core::kMaxBytes)
        ti_.fail(a, "'" + a.name + "': its counts add up beyond what p3s accepts");
      total = *next;
    }
    return total;
  }

  // Advances a clock by `ns`, refusing a total beyond what int64 nanoseconds hold.
  void advance(const TiAction& a, std::int64_t& clock, std::int64_t ns) const {
    const std::optional<std::int64_t> sum = core::checked_add(clock, ns);
    if (!sum) ti_.fail(a, "the rank's time passes what p3s can count in nanoseconds");
    clock = *sum;
  }

  // ---- the clock --------------------------------------------------------------------------

  std::int64_t nanoseconds(const TiAction& a, double seconds) const {
    double ns = std::round(seconds * 1e9);
    if (ns > 9e18) ti_.fail(a, "'" + a.name + "' lasts longer than p3s can count in nanoseconds");
    return static_cast<std::int64_t>(ns);
  }

  core::Event& emit(core::Op op) {
    core::Event e;
    e.op = op;
    e.t_start = e.t_end = clock_ns_;
    e.burst_cpu = burst_cpu_ns_;
    burst_cpu_ns_ = 0;
    out_.events.push_back(e);
    return out_.events.back();
  }

  std::int64_t new_request() { return next_request_++; }

  // ---- actions ----------------------------------------------------------------------------

  void init(const TiAction& a, const TiActionSpec& spec) {
    arity(a, spec, 0, 1);
    if (initialized_) ti_.fail(a, "second 'init'");
    initialized_ = true;
    default_type_ = a.args.empty() ? kByteType : kDoubleType;
  }

  void finalize(const TiAction& a, const TiActionSpec& spec) {
    arity(a, spec, 0, 0);
    emit(core::Op::Finalize);
    finalized_ = true;
  }

  void compute(const TiAction& a, const TiActionSpec& spec) {
    arity(a, spec, 1, 1);
    std::int64_t ns = nanoseconds(a, amount(a, 0, "FLOPS") / timing_.flops_per_second);
    advance(a, burst_cpu_ns_, ns);
    advance(a, clock_ns_, ns);
  }

  // Time the rank spent asleep: it passes on the clock, but is no CPU time.
  void sleep(const TiAction& a, const TiActionSpec& spec) {
    arity(a, spec, 1, 1);
    advance(a, clock_ns_, nanoseconds(a, amount(a, 0, "SECONDS")));
  }

  void send(const TiAction& a, const TiActionSpec& spec) {
    arity(a, spec, 3, 4);
    const std::int64_t to = peer(a, 0, "PEER", true);
    const bool proc_null = to == kTiUndefinedPeer;  // a send cannot name MPI_ANY_SOURCE
    const std::int64_t size = bytes(a, 2, 3, "COUNT");
    core::Event& e = emit(spec.op);
    e.dst = proc_null ? core::kNone : static_cast<std::int32_t>(to);
    e.tag = tag(a, 1);
    e.bytes = proc_null ? 0 : size;
    if (core::is_nonblocking(spec.op))
      start_request(e, {rank_, to, integer(a, 1, "TAG")}, true, false);
  }

  void recv(const TiAction& a, const TiActionSpec& spec) {
    arity(a, spec, 3, 4);
    const std::int64_t from = peer(a, 0, "PEER", true);
    core::Event& e = emit(spec.op);
    e.src = from == kTiUndefinedPeer ? core::kAnySource : static_cast<std::int32_t>(from);
    e.rtag = tag(a, 1);
    e.rbytes = bytes(a, 2, 3, "COUNT");
    if (core::is_nonblocking(spec.op))
      start_request(e, {from, rank_, integer(a, 1, "TAG")}, false, false);
  }

  // A persistent request started. TI writes no init, only each start, with the request's
  // destination (this rank for a receive, whose source it does not say) and its size in bytes.
  void start(const TiAction& a, const TiActionSpec& spec) {
    arity(a, spec, 4, 4);
    const std::int64_t to = peer(a, 0, "PEER", true);
    const std::int64_t raw_tag = integer(a, 1, "TAG");
    const std::int64_t size = count(a, 2, "BYTES");
    type_size(a, 3);
    if (to == rank_) {
      core::Event& e = emit(core::Op::Irecv);
      e.src = core::kAnySource;
      e.rtag = tag(a, 1);
      e.rbytes = size;
      start_request(e, {kTiUndefinedPeer, rank_, raw_tag}, false, true);
    } else {
      const bool proc_null = to == kTiUndefinedPeer;
      core::Event& e = emit(core::Op::Isend);
      e.dst = proc_null ? core::kNone : static_cast<std::int32_t>(to);
      e.tag = tag(a, 1);
      e.bytes = proc_null ? 0 : size;
      start_request(e, {rank_, to, raw_tag}, true, false);
    }
  }

  // TI writes no tags for MPI_Sendrecv: both are -1 (none) in the import.
  void send_recv(const TiAction& a, const TiActionSpec& spec) {
    if (a.args.size() != 4 && a.args.size() != 6) arity_error(a, spec);
    const std::int64_t to = peer(a, 1, "DST", true);
    const std::int64_t from = peer(a, 3, "SRC", true);
    const std::int64_t size = bytes(a, 0, 4, "SENDCOUNT");
    core::Event& e = emit(spec.op);
    e.dst = to == kTiUndefinedPeer ? core::kNone : static_cast<std::int32_t>(to);
    e.bytes = to == kTiUndefinedPeer ? 0 : size;
    e.src = from == kTiUndefinedPeer ? core::kAnySource : static_cast<std::int32_t>(from);
    e.rbytes = bytes(a, 2, 5, "RECVCOUNT");
  }

  void start_request(core::Event& e, TiRequestKey key, bool sending, bool source_unknown) {
    e.req = new_request();
    TiPendingRequest p;
    p.key = key;
    p.source_unknown = source_unknown;
    p.record = sending ? core::RequestRecord{e.req, true, e.dst, e.tag, e.bytes}
                       : core::RequestRecord{e.req, false, e.src, e.rtag, e.rbytes};
    requests_.add(p);
  }

  TiRequestKey named_request(const TiAction& a, const TiActionSpec& spec) const {
    arity(a, spec, 3, 3);
    return {integer(a, 0, "SRC"), integer(a, 1, "DST"), integer(a, 2, "TAG")};
  }

  void wait(const TiAction& a, const TiActionSpec& spec) {
    const TiRequestKey key = named_request(a, spec);
    core::Event& e = emit(spec.op);
    // Like SMPI's replay, a wait for no pending request completes nothing.
    if (auto i = requests_.find(key)) {
      TiPendingRequest p = requests_.take(*i);
      if (p.source_unknown && key.src >= 0 && key.src < nprocs_)
        p.record.peer = static_cast<std::int32_t>(key.src);
      e.requests.push_back(p.record);
    }
  }

  // Whether the test completed its request shows only later (see convert()).
  void test(const TiAction& a, const TiActionSpec& spec) {
    const TiRequestKey key = named_request(a, spec);
    emit(spec.op);
    if (auto i = requests_.find(key)) requests_.at(*i).tested_by = out_.events.size() - 1;
  }

  // TI gives only the length of the request array: like SMPI's replay, the import completes
  // every pending request.
  void wait_all(const TiAction& a, const TiActionSpec& spec) {
    arity(a, spec, 1, 1);
    amount(a, 0, "COUNT");
    core::Event& e = emit(spec.op);
    for (TiPendingRequest& p : requests_.take_all()) e.requests.push_back(p.record);
  }

  // TI does not say which request completed: the import takes the oldest pending one.
  void wait_any(const TiAction& a, const TiActionSpec& spec) {
    arity(a, spec, 1, 1);
    amount(a, 0, "COUNT");
    core::Event& e = emit(spec.op);
    if (!requests_.empty()) e.requests.push_back(requests_.take(0).record);
  }

  // testany, testall and testsome name no request and not whether they succeeded: they
  // complete nothing, and a later wait completes their requests.
  void test_unnamed(const TiAction& a, const TiActionSpec& spec) {
    arity(a, spec, 0, 0);
    emit(spec.op);
  }

  [[noreturn]] void lost(const TiAction& a) const {
    ti_.fail(a, "'" + a.name +
                    "': SMPI's TI trace does not say which persistent requests MPI_Startall "
                    "started, so their messages are lost; the trace cannot be imported");
  }

  // Collectives: TI does not say on which communicator, so every one is imported on
  // MPI_COMM_WORLD with its root as written (the root's rank in the communicator it ran on).
  // What a collective moves at this rank, and its root.
  struct CollectiveBytes {
    std::int64_t sent = 0, received = 0;
    std::int32_t root = core::kNone;
  };

  void collective(const TiAction& a, const TiActionSpec& spec) {
    const CollectiveBytes moved = collective_bytes(a, spec);
    core::Event& e = emit(spec.op);
    e.bytes = moved.sent;
    e.rbytes = moved.received;
    e.root = moved.root;
    if (core::is_nonblocking(spec.op)) {
      e.req = new_request();
      TiPendingRequest p;
      p.collective = true;
      p.record = {e.req, true, core::kNone, core::kNone,
                  e.bytes};  // as p3s traces a collective request
      requests_.add(p);
    }
  }

  CollectiveBytes collective_bytes(const TiAction& a, const TiActionSpec& spec) const {
    const std::int64_t n = nprocs_;
    const std::size_t vn = static_cast<std::size_t>(nprocs_);
    CollectiveBytes c;
    switch (spec.shape) {
      case TiShape::Barrier:
        arity(a, spec, 0, 0);
        break;
      case TiShape::Bcast:
        arity(a, spec, 2, 3);
        c.root = root(a, 1);
        c.sent = c.received = bytes(a, 0, 2, "COUNT");
        break;
      case TiShape::Reduce:
        arity(a, spec, 3, 4);
        amount(a, 1, "FLOPS");
        c.root = root(a, 2);
        c.sent = c.received = bytes(a, 0, 3, "COUNT");
        break;
      case TiShape::AllReduce:
        arity(a, spec, 2, 3);
        amount(a, 1, "FLOPS");
        c.sent = c.received = bytes(a, 0, 2, "COUNT");
        break;
      case TiShape::Gather:
      case TiShape::Scatter:
        return rooted_block_bytes(a, spec);
      case TiShape::AllGather:
      case TiShape::AllToAll: {
        arity(a, spec, 3, 4);
        const std::size_t r = a.args.size() - 3;
        const std::int64_t send_bytes = bytes(a, 0, 1 + r, "SENDCOUNT");
        const std::int64_t recv_size = type_size(a, 2 + r);
        const std::int64_t recv_bytes = r ? product(a, count(a, 1, "RECVCOUNT"), recv_size) : 0;
        c.sent = spec.shape == TiShape::AllToAll ? product(a, n, send_bytes) : send_bytes;
        c.received = product(a, n, recv_bytes);
        break;
      }
      case TiShape::GatherV:
        return gatherv_bytes(a, spec);
      case TiShape::ScatterV:
        vector_arity(a, spec, vn + 4, kSubCommunicator);
        c.root = root(a, vn + 1);
        c.sent = product(a, sum(a, counts(a, 0, "SENDCOUNT")), type_size(a, vn + 2));
        if (c.root != rank_) c.sent = 0;  // only the root sends; SMPI writes zeros elsewhere
        c.received = bytes(a, vn, vn + 3, "RECVCOUNT");
        break;
      case TiShape::AllGatherV:
        vector_arity(a, spec, vn + 3, kSubCommunicator);
        c.sent = bytes(a, 0, vn + 1, "SENDCOUNT");
        c.received = product(a, sum(a, counts(a, 1, "RECVCOUNT")), type_size(a, vn + 2));
        break;
      case TiShape::AllToAllV:
        vector_arity(a, spec, 2 * vn + 4, kSubCommunicator);
        count(a, 0, "SENDTOTAL");
        count(a, vn + 1, "RECVTOTAL");
        c.sent = product(a, sum(a, counts(a, 1, "SENDCOUNT")), type_size(a, 2 * vn + 2));
        c.received = product(a, sum(a, counts(a, vn + 2, "RECVCOUNT")), type_size(a, 2 * vn + 3));
        break;
      case TiShape::ReduceScatter: {
        vector_arity(a, spec, vn + 2,
                     "SMPI 3.32 writes MPI_Reduce_scatter_block so, losing its counts; or a "
                     "collective on a sub-communicator, which TI traces do not name");
        amount(a, vn, "FLOPS");
        const std::int64_t size = type_size(a, vn + 1);
        const std::vector<std::int64_t> per_rank = counts(a, 0, "RECVCOUNT");
        c.sent = product(a, sum(a, per_rank), size);
        c.received = product(a, per_rank[static_cast<std::size_t>(rank_)], size);
        break;
      }
      default:
        break;
    }
    return c;
  }

  // Gather and scatter: one block per rank to or from the root.
  CollectiveBytes rooted_block_bytes(const TiAction& a, const TiActionSpec& spec) const {
    const std::int64_t n = nprocs_;
    CollectiveBytes c;
    // SMPI leaves out RECVCOUNT when it is 0.
    arity(a, spec, 4, 5);
    const std::size_t r = a.args.size() - 4;  // 1 when RECVCOUNT is there
    c.root = root(a, 1 + r);
    const std::int64_t send_bytes = bytes(a, 0, 2 + r, "SENDCOUNT");
    const std::int64_t recv_size = type_size(a, 3 + r);
    const std::int64_t recv_bytes = r ? product(a, count(a, 1, "RECVCOUNT"), recv_size) : 0;
    const bool is_root = c.root == rank_;
    if (spec.shape == TiShape::Gather) {
      // SMPI refuses a root whose send and receive sizes differ, except that it writes
      // MPI_IN_PLACE as a send of 0: then the root's own block counts, as p3s traces it.
      c.sent = is_root && send_bytes == 0 ? recv_bytes : send_bytes;
      c.received = is_root ? product(a, n, recv_bytes) : 0;
    } else {
      c.sent = is_root ? product(a, n, send_bytes) : 0;
      c.received = recv_bytes;
    }
    return c;
  }

  // Gatherv: the root receives every rank's count.
  CollectiveBytes gatherv_bytes(const TiAction& a, const TiActionSpec& spec) const {
    const std::size_t vn = static_cast<std::size_t>(nprocs_);
    CollectiveBytes c;
    vector_arity(a, spec, vn + 4, kSubCommunicator);
    c.root = root(a, 1 + vn);
    c.sent = bytes(a, 0, vn + 2, "SENDCOUNT");
    const std::vector<std::int64_t> per_rank = counts(a, 1, "RECVCOUNT");
    const std::int64_t recv_size = type_size(a, vn + 3);
    c.received = product(a, sum(a, per_rank), recv_size);
    if (c.root != rank_) {
      c.received = 0;  // only the root receives; SMPI writes zeros elsewhere
    } else if (c.sent == 0) {
      // MPI_IN_PLACE, as for gather
      c.sent = product(a, per_rank[static_cast<std::size_t>(rank_)], recv_size);
    }
    return c;
  }

  // A v-collective's counts are one per rank of the run; `hint` says why they may not be.
  void vector_arity(const TiAction& a, const TiActionSpec& spec, std::size_t expected,
                    std::string_view hint) const {
    if (a.args.size() == expected) return;
    ti_.fail(a, "'" + a.name + "' takes " + std::string(spec.arguments) + " = " +
                    std::to_string(expected) + " arguments in this " + std::to_string(nprocs_) +
                    "-rank run, got " + std::to_string(a.args.size()) + " (" + std::string(hint) +
                    ")");
  }

  const TiTrace& ti_;
  const int rank_;
  const int nprocs_;
  const TiTiming timing_;
  core::RankTrace out_;
  TiPendingRequests requests_;
  std::string_view default_type_ = kByteType;
  bool initialized_ = false;
  bool finalized_ = false;
  std::int64_t clock_ns_ = 0;
  std::int64_t burst_cpu_ns_ = 0;
  std::int64_t next_request_ = 0;
};

}  // namespace

std::string ti_cpu_clock(const TiTiming& timing) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, timing.flops_per_second);
  return "flops/" + std::string(buf, end);
}

core::RankTrace convert_ti_rank(const TiTrace& trace, int rank, const TiTiming& timing) {
  return RankConverter(trace, rank, timing).convert();
}

}  // namespace p3s::ti
