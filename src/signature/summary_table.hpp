#pragma once
// The readable summary `p3s signature` prints: the representative rank's relevant phases with
// their weights and time shares, the coverage, and PET against AET.
#include <string>

#include "signature/signature.hpp"

namespace p3s::signature {

std::string summary_table(const Signature& sig);

}  // namespace p3s::signature
