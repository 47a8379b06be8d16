#pragma once
// The datatypes SimGrid's SMPI names by number in its time-independent traces.
#include <cstdint>
#include <optional>
#include <string_view>

namespace p3s::core {

// Size in bytes of the SMPI datatype with this id (SimGrid 3.32 on a 64-bit Linux host), or
// nothing for an id SMPI never writes for a sized type; "-1" is what it writes for every derived
// datatype, whose size the trace does not record.
std::optional<std::int64_t> smpi_datatype_size(std::string_view id);

}  // namespace p3s::core
