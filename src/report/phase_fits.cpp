#include "report/phase_fits.hpp"

#include <fmt/core.h>

#include <algorithm>

namespace p3s::report {

std::vector<PhaseFit> phase_fits(const model::Slt& slt) {
  std::vector<PhaseFit> fits;
  for (std::size_t k = 0; k < slt.phases.size(); ++k) {
    const model::PhaseModel& p = slt.phases[k];
    PhaseFit f;
    f.name = p.name;
    f.pattern_modelled = p.pattern_modelled;
    f.pattern =
        p.pattern_modelled
            ? fmt::format("exact at every training n ({} alignment, {} slot(s){})", p.alignment,
                          p.slots.size(), p.layout.grows() ? ", " + p.layout.blocks_text() : "")
            : "NOT MODELLED";
    f.weight_equation = p.weight.equation();
    f.weight_error_pct = p.weight.quality.max_error_pct;
    for (const model::SlotModel& slot : p.slots) {
      for (const auto* bytes : {&slot.bytes, &slot.rbytes}) {
        if (!*bytes) continue;
        f.volume_error_pct =
            std::max(f.volume_error_pct.value_or(0.0), (*bytes)->quality.max_error_pct);
      }
    }
    if (k < slt.compute.phases.size()) {
      for (const model::InstructionGroup& g : slt.compute.phases[k].groups) {
        f.compute_error_pct = std::max(f.compute_error_pct, g.per_rank_ns.quality.max_error_pct);
      }
    }
    fits.push_back(std::move(f));
  }
  return fits;
}

std::vector<std::string> not_modelled(const model::Slt& slt) {
  std::vector<std::string> lines;
  for (const model::PhaseModel& p : slt.phases) {
    if (p.pattern_modelled) continue;
    lines.push_back(fmt::format("{}: pattern not modelled{}", p.name,
                                p.failures.empty() ? "" : ": " + p.failures.front()));
  }
  lines.insert(lines.end(), slt.notes.begin(), slt.notes.end());
  return lines;
}

std::vector<std::string> coverage_lines(const model::Slt& slt) {
  std::vector<std::string> lines;
  for (const model::RunCoverage& c : slt.coverage) {
    std::string line = fmt::format("n = {}: {:.1f} % of the run in exactly modelled phases", c.n,
                                   100 * c.modelled);
    if (!c.missing.empty()) {
      line += fmt::format("; the largest left out: {} ({:.1f} %, {})", c.missing.front().phase,
                          100 * c.missing.front().share, c.missing.front().why);
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace p3s::report
