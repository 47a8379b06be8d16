#include "cli/instantiation_flags.hpp"

#include <fmt/core.h>

namespace p3s::cli {

void add_instantiation_flags(boost::program_options::options_description& desc,
                             InstantiationFlags& flags) {
  namespace po = boost::program_options;
  desc.add_options()("carry-nearest", po::bool_switch(&flags.carry_nearest),
                     "carry the largest run's pattern for phases that are not modelled")(
      "partial", po::bool_switch(&flags.partial),
      "leave out what cannot be instantiated at N (named, with its share of the largest "
      "training run) instead of refusing N")(
      "accept-ambiguous", po::bool_switch(&flags.accept_ambiguous),
      "use the model's chosen rules where the training runs leave a phase's peers undecided at "
      "N, instead of refusing N");
}

std::optional<generate::Instantiation> instantiate_for(const model::Slt& slt, int nprocs,
                                                       const generate::Policy& policy,
                                                       std::string_view command) {
  try {
    generate::Instantiation inst = generate::instantiate(slt, nprocs, policy);
    for (const std::string& w : inst.warnings) fmt::print(stderr, "WARNING: {}\n", w);
    if (!inst.left_out.empty()) {
      fmt::print(stderr, "{}: the ST4NP at N = {} {}\n",
                 std::any_of(inst.left_out.begin(), inst.left_out.end(),
                             [](const generate::LeftOut& l) { return l.relevant; })
                     ? "WARNING"
                     : "note",
                 nprocs, inst.coverage_text());
    }
    return inst;
  } catch (const generate::Refusal& e) {
    fmt::print(stderr, "p3s {}: refused: {}\n", command, e.what());
    return std::nullopt;
  }
}

}  // namespace p3s::cli
