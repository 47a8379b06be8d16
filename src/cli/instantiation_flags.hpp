#pragma once
// The flags every command that instantiates an SLT shares (generate, simulate, predict, whatif,
// replay), and the instantiation as a command that prints does it: one policy
// (generate/instantiation.hpp), its warnings and what it leaves out on stderr.
#include <boost/program_options.hpp>
#include <optional>
#include <string_view>

#include "generate/instantiation.hpp"

namespace p3s::cli {

struct InstantiationFlags {
  bool carry_nearest = false;
  bool partial = false;
  bool accept_ambiguous = false;
  generate::Policy policy() const {
    return {
        .carry_nearest = carry_nearest, .partial = partial, .accept_undecided = accept_ambiguous};
  }
};

void add_instantiation_flags(boost::program_options::options_description& desc,
                             InstantiationFlags& flags);

// The SLT at N; prints its warnings and, when it leaves anything out, what and how much. When N
// is refused, prints why as `p3s COMMAND: refused: ...` and returns nothing.
std::optional<generate::Instantiation> instantiate_for(const model::Slt& slt, int nprocs,
                                                       const generate::Policy& policy,
                                                       std::string_view command);

}  // namespace p3s::cli
