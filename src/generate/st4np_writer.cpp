#include "generate/st4np_writer.hpp"

#include <fmt/core.h>

#include <string>

#include "core/trace_format.hpp"

namespace p3s::generate {

void write_st4np(const core::ScaledTrace& trace, std::ostream& out, int first, int last) {
  std::string buffer = fmt::format("p3s-st4np 1\nnprocs {}\nranks {} {}\nphases {}\n",
                                   trace.nprocs(), first, last, trace.phases().size());
  for (std::size_t p = 0; p < trace.phases().size(); ++p) {
    buffer += fmt::format("phase {} {} {}\n", p, trace.phases()[p].weight, trace.phases()[p].name);
  }
  std::vector<core::Event> events;
  for (int r = first; r <= last; ++r) {
    buffer += fmt::format("rank {}\n", r);
    for (const core::Communicator& comm : trace.communicators(r)) core::append_comm(buffer, comm);
    for (std::size_t p = 0; p < trace.phases().size(); ++p) {
      events.clear();
      trace.phase_events(static_cast<int>(p), r, events);
      buffer += fmt::format("phase {} {}\n", p, events.size());
      for (const core::Event& e : events) {
        core::append_event(buffer, e, 0);
        for (const core::RequestRecord& req : e.requests) core::append_request(buffer, req);
      }
    }
    if (buffer.size() > (1u << 20)) {
      out << buffer;
      buffer.clear();
    }
  }
  buffer += "end\n";
  out << buffer;
}

}  // namespace p3s::generate
