#include "generate/instantiation.hpp"

#include <fmt/core.h>

#include <algorithm>

namespace p3s::generate {
namespace {

// SLT phase p's share of the largest training run, 0 where it is not in it.
double largest_run_share(const model::Slt& slt, const model::PhaseModel& p) {
  if (slt.runs.empty() || p.runs_n.empty() || p.runs_n.back() != slt.runs.back()) return 0;
  return p.shares.back();
}

std::string phase_text(const model::PhaseModel& p) {
  return fmt::format("{} ({})", p.name, p.calls);
}

// What the SLT itself leaves out of its largest training run: run phases it never related to
// another run's, and those below the relevance threshold.
void never_in_the_slt(const model::Slt& slt, std::vector<LeftOut>& left_out) {
  if (slt.coverage.empty()) return;
  for (const model::RunCoverage::Missing& m : slt.coverage.back().missing) {
    if (m.slt_phase) continue;  // an SLT phase: counted by what instantiation left out
    left_out.push_back({m.phase, m.share, m.why, m.relevant});
  }
}

}  // namespace

std::string Instantiation::coverage_text() const {
  std::string text = fmt::format("covers {:.1f} % of the largest training run", 100 * covered);
  if (left_out.empty()) return text;
  text += "; left out:";
  for (const LeftOut& l : left_out) {
    text += fmt::format("\n  {:5.1f} %  {}: {}", 100 * l.share, l.what, l.why);
  }
  return text;
}

Instantiation instantiate(const model::Slt& slt, std::int64_t n, const Policy& policy) {
  Instantiation out;
  try {
    out.trace = std::make_unique<model::SltScaledTrace>(
        slt, static_cast<int>(n),
        model::InstantiateOptions{.carry_nearest = policy.carry_nearest,
                                  .omit_unavailable = policy.partial,
                                  .accept_undecided = policy.accept_undecided});
  } catch (const std::domain_error& e) {
    throw Refusal(fmt::format("{} (--partial leaves out what cannot be instantiated)", e.what()));
  }
  out.warnings = out.trace->warnings();
  for (const model::OmittedPhase& o : out.trace->omitted()) {
    const auto p = std::find_if(slt.phases.begin(), slt.phases.end(),
                                [&](const model::PhaseModel& m) { return m.name == o.name; });
    out.left_out.push_back({p != slt.phases.end() ? phase_text(*p) : o.name,
                            p != slt.phases.end() ? largest_run_share(slt, *p) : 0, o.reason,
                            true});
  }
  never_in_the_slt(slt, out.left_out);
  std::sort(out.left_out.begin(), out.left_out.end(),
            [](const LeftOut& a, const LeftOut& b) { return a.share > b.share; });
  for (const core::ScaledPhase& phase : out.trace->phases()) {
    for (const model::PhaseModel& p : slt.phases) {
      if (p.name == phase.name) out.covered += largest_run_share(slt, p);
    }
  }
  if (out.trace->phases().empty()) {
    throw Refusal(fmt::format("no phase of the model can be instantiated at N = {}; {}", n,
                              out.coverage_text()));
  }
  const bool relevant_left_out = std::any_of(out.left_out.begin(), out.left_out.end(),
                                             [](const LeftOut& l) { return l.relevant; });
  if (relevant_left_out && !policy.partial) {
    throw Refusal(fmt::format(
        "the ST4NP at N = {} would leave out part of the run: it {} (--partial instantiates the "
        "rest, and says so)",
        n, out.coverage_text()));
  }
  return out;
}

}  // namespace p3s::generate
