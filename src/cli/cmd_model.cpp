// p3s model: relates the phases of runs at different n and writes the Scalable Logical Trace
// (SLT); says how much of every training run it explains; with --holdout, checks the model
// against a run it was not fitted to.
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <boost/program_options.hpp>
#include <cmath>
#include <filesystem>

#include "cli/commands.hpp"
#include "cli/parse_options.hpp"
#include "cli/share_option.hpp"
#include "model/holdout_check.hpp"
#include "model/logical_phases.hpp"
#include "model/slt_json.hpp"
#include "model/undecided_rules.hpp"
#include "predict/build_model.hpp"

namespace p3s::cli {
namespace {
namespace po = boost::program_options;

// Exit code when the model explains too little of a training run and --allow-partial was not
// given: the SLT is written, but a pipeline must not go on as if it were whole.
constexpr int kPartialExit = 3;

void print_phase(const model::PhaseModel& p) {
  fmt::print("{}: {}\n", p.name, p.calls);
  for (std::size_t i = 0; i < p.runs_n.size(); ++i) {
    fmt::print("  n = {:<6} {:5.1f} % of the run   {}\n", p.runs_n[i], 100 * p.shares[i],
               p.pairing[i]);
  }
  fmt::print("  weight = {} (max error {:.2f} %)\n", p.weight.equation(),
             p.weight.quality.max_error_pct);
  if (!p.pattern_modelled) {
    fmt::print("  pattern NOT MODELLED:\n");
    for (const std::string& f : p.failures) fmt::print("    {}\n", f);
    return;
  }
  fmt::print("  pattern modelled ({} alignment), {} slot(s){}\n", p.alignment, p.slots.size(),
             p.layout.grows() ? ": " + p.layout.blocks_text() : "");
  for (const auto* rules : {&p.dst_rules, &p.src_rules, &p.root_rules}) {
    if (!*rules) continue;
    for (const model::PeerRule& rule : (*rules)->rules) fmt::print("    {}\n", rule.text());
  }
  for (const std::string& note : p.notes) fmt::print("  AMBIGUOUS {}\n", note);
  for (std::size_t s = 0; s < p.slots.size(); ++s) {
    const model::SlotModel& slot = p.slots[s];
    const auto& bytes = slot.bytes ? slot.bytes : slot.rbytes;
    const double spread = std::max(slot.bytes_spread, slot.rbytes_spread);
    fmt::print("    slot {} {}: bytes = {}{}\n", s, core::op_name(slot.op),
               bytes ? bytes->equation() : std::string("0"),
               spread > 0 ? fmt::format(" (data-dependent: +-{:.1f} %)", 100 * spread) : "");
  }
}

void print_compute(const model::PhaseCompute& c, const std::string& metric) {
  fmt::print("  compute ({}), {} instruction group(s):\n", metric, c.groups.size());
  for (const model::InstructionGroup& g : c.groups) {
    const std::string ranks =
        g.modulus > 1
            ? fmt::format("ranks r mod {} in {{{}}}", g.modulus, fmt::join(g.residues, ","))
            : fmt::format("ranks [{:.3g} n, {:.3g} n)", g.first, g.end);
    fmt::print("    {}: per rank = {} ns{} (max error {:.2f} %)\n", ranks, g.per_rank_ns.equation(),
               g.slowest ? " (the slowest rank's)" : "", g.per_rank_ns.quality.max_error_pct);
    if (g.total_instructions) {
      fmt::print("      IPT: {:.6g} instructions in total, constant in n\n", *g.total_instructions);
    }
    for (const model::ComputePoint& pt : g.points) {
      if (!pt.measurable) continue;
      fmt::print(
          "      measurable point: run at n = {} (workload {}) placed at n = {:.4g}: {:.0f} ns\n",
          pt.n_measured, pt.workload ? fmt::format("{}", *pt.workload) : "?", pt.n, pt.cpu_ns);
    }
  }
  for (const std::string& note : c.notes) fmt::print("  compute note: {}\n", note);
}

// The coverage of every training run, and the phases that keep it below `minimum`, in words.
std::string coverage_text(const model::Slt& slt, double minimum) {
  std::string out = "coverage (share of each training run's time in exactly modelled phases):\n";
  for (const model::RunCoverage& c : slt.coverage) {
    const bool short_of = c.modelled < minimum;
    out += fmt::format("  n = {:<6} {:6.1f} %  {}{}\n", c.n, 100 * c.modelled, c.run,
                       short_of ? "   BELOW " + fmt::format("{:.0f} %", 100 * minimum) : "");
    if (!short_of) continue;
    for (const model::RunCoverage::Missing& m : c.missing) {
      out += fmt::format("      {:5.1f} %  {}: {}\n", 100 * m.share, m.phase, m.why);
    }
  }
  return out;
}

// Undecided rules whose readings differ at no more than this share of the n beyond the largest
// training run (up to 16 times it) are noted, not refused: a grid family that departs from
// MPI_Dims_create's at n = 432 alone leaves every other N decided. Generate refuses the N where
// they differ either way.
constexpr double kRareDifference = 0.05;

// What the training runs leave undecided, phase by phase: the phases refused (exit 3) and those
// only noted, each in words.
struct Undecided {
  std::string refused;
  std::string noted;
};

Undecided undecided_text(const model::Slt& slt) {
  constexpr std::size_t kListed = 3;
  Undecided out;
  const std::int64_t largest = slt.runs.empty() ? 0 : slt.runs.back();
  for (const model::PhaseModel& phase : slt.phases) {
    if (phase.undecided.empty()) continue;
    const std::vector<std::int64_t> ns = model::undecided_ns(phase, largest);
    if (ns.empty()) continue;
    std::string text =
        fmt::format("{} ({}): the training runs leave {} reading(s) of its peers open:\n",
                    phase.name, phase.calls, phase.undecided.size());
    for (std::size_t i = 0; i < phase.undecided.size() && i < kListed; ++i) {
      text +=
          fmt::format("  {}, from n = {} on\n", model::undecided_text(phase, phase.undecided[i]),
                      phase.undecided[i].undecided.differs_from);
    }
    if (phase.undecided.size() > kListed) {
      text += fmt::format("  ... and {} more\n", phase.undecided.size() - kListed);
    }
    const bool rare =
        static_cast<double>(ns.size()) <= kRareDifference * static_cast<double>(15 * largest);
    if (rare) {
      out.noted +=
          text +
          fmt::format(
              "  they differ only at n = {} up to {}: generate refuses those N "
              "(and keeps every other)\n",
              fmt::join(ns.begin(), ns.begin() + std::min<std::ptrdiff_t>(std::ssize(ns), 8), ", "),
              16 * largest);
      continue;
    }
    out.refused += text + (phase.settled_by
                               ? fmt::format("  a training run at n = {} decides them all: add it "
                                             "(or give --accept-ambiguous, or a --holdout run "
                                             "there)\n",
                                             *phase.settled_by)
                               : std::string("  a training run on a larger grid decides them: "
                                             "add one (or give --accept-ambiguous)\n"));
  }
  return out;
}

}  // namespace

int run_model(const Args& args) {
  po::options_description desc("options");
  std::vector<std::string> runs;
  std::string holdout;
  std::vector<std::string> measurable;
  std::string output = "app.slt";
  double threshold = 0.01;
  std::string min_coverage = "90%";
  bool allow_partial = false;
  std::string scaling = "unknown";
  bool allow_incomplete = false;
  bool accept_ambiguous = false;
  desc.add_options()("help,h", "show this help")("runs", po::value(&runs)->multitoken()->required(),
                                                 "run directories at different process counts")(
      "holdout", po::value(&holdout), "a run left out of the fit, to check the model against")(
      "measurable", po::value(&measurable)->multitoken(),
      "runs of a smaller workload (p3s trace --workload LABEL=SIZE): measurable points for "
      "the compute model")("threshold", po::value(&threshold)->default_value(threshold),
                           "relevance: a phase is modelled when it takes at least this share "
                           "of some rank's run")(
      "min-coverage", po::value(&min_coverage)->default_value(min_coverage),
      "the share of every training run's time that exactly modelled phases must explain")(
      "allow-partial", po::bool_switch(&allow_partial),
      "exit 0 even when a training run is covered less than --min-coverage")(
      "accept-ambiguous", po::bool_switch(&accept_ambiguous),
      "exit 0 even when the training runs leave some peers undecided (rules that reproduce "
      "them all but differ at larger n); generate still refuses such an N without its own "
      "--accept-ambiguous")(
      "allow-incomplete", po::bool_switch(&allow_incomplete),
      "model runs whose ranks did not all finish (aborted, killed) instead of refusing them")(
      "output,o", po::value(&output)->default_value(output), "where to write the SLT")(
      "scaling", po::value(&scaling)->default_value(scaling),
      "weak (each process keeps its share of the work: compute per rank is constant, or grows "
      "like log2(n)), strong (the total work is fixed: compute per rank is c/n plus what every "
      "rank repeats) or unknown (every form is tried)");
  po::positional_options_description pos;
  pos.add("runs", -1);
  const auto parsed = parse_options(
      args, desc,
      "usage: p3s model RUN... [--measurable RUN...] [--holdout RUN] [-o app.slt]\n"
      "                 [--scaling weak|strong] [--min-coverage 90%] [--allow-partial]\n"
      "                 [--allow-incomplete]\n\n"
      "Relates the phases of runs at different process counts by what they do (their\n"
      "calls, weights and order, the phases that take the time first) and models each\n"
      "phase's communication pattern, message volumes, weight and compute as functions\n"
      "of n. Writes the SLT as JSON, and prints how much of each training run's time the\n"
      "exactly modelled phases explain; below --min-coverage it names what is missing and\n"
      "exits with code 3 (the SLT is still written) unless --allow-partial. Where the\n"
      "training runs leave a phase's peers undecided (two rules reproduce them all and\n"
      "differ at larger n), it names the slots, both rules and the n of a training run that\n"
      "settles it, and exits with code 3 unless a --holdout run settles it or\n"
      "--accept-ambiguous.\n\n"
      "Measurable points: runs at small n of a smaller workload, placed at the n\n"
      "where the original workload gives each rank the same instructions (with\n"
      "counters) or the same work (without): a run of SIZE w at n_m stands for\n"
      "n = n_m * W / w, W the training runs' SIZE. So SIZE must be proportional\n"
      "to the total work of the run (e.g. the number of grid points).\n\n",
      pos);
  if (!parsed) return 0;
  if (!(threshold >= 0 && threshold < 1)) throw UsageError("--threshold must be in [0, 1)");
  const double minimum = parse_share(min_coverage, "--min-coverage");

  predict::ModelRequest request;
  request.threshold = threshold;
  try {
    request.scaling = model::work_scaling_from_name(scaling);
  } catch (const std::invalid_argument& e) {
    throw UsageError(fmt::format("--scaling: {}", e.what()));
  }
  request.allow_incomplete = allow_incomplete;
  request.warning = print_warning;
  for (const std::string& run : runs) request.training.push_back(predict::signature_of(run));
  for (const std::string& run : measurable) {
    request.measurable.push_back(predict::signature_of(run));
  }
  if (!holdout.empty()) request.holdout = predict::signature_of(holdout);
  model::BuiltSlt built = predict::build_model(request);
  model::Slt& slt = built.slt;
  std::optional<model::HoldoutCheck> check;
  if (built.holdout) check = model::check_holdout(slt, *built.holdout, built.holdout_phase);
  if (check) model::settle_by_holdout(built, *check);
  for (std::size_t k = 0; k < slt.phases.size(); ++k) {
    print_phase(slt.phases[k]);
    print_compute(slt.compute.phases[k], slt.compute.metric);
  }
  for (const std::string& note : slt.notes) fmt::print("note: {}\n", note);
  if (check) fmt::print("{}", check->text());
  fmt::print("{}", coverage_text(slt, minimum));
  model::write_slt(output, slt);
  fmt::print("SLT written to {}\n", output);
  int exit = 0;
  if (slt.least_coverage() < minimum) {
    fmt::print(stderr,
               "p3s model: {} the SLT explains only {:.1f} % of a training run (--min-coverage "
               "{:.0f} %): predictions from it leave out the phases listed above\n",
               allow_partial ? "warning:" : "error:", 100 * slt.least_coverage(), 100 * minimum);
    if (!allow_partial) exit = kPartialExit;
  }
  const Undecided undecided = undecided_text(slt);
  if (!undecided.noted.empty()) fmt::print(stderr, "p3s model: note: {}", undecided.noted);
  if (!undecided.refused.empty()) {
    fmt::print(stderr, "p3s model: {} {}",
               accept_ambiguous ? "warning:" : "error:", undecided.refused);
    if (!accept_ambiguous) exit = kPartialExit;
  }
  return exit;
}

}  // namespace p3s::cli
