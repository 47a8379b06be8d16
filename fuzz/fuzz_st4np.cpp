// An ST4NP file (p3s generate's st4np.txt, p3s-replay's input). On success, what the reader
// gives the writer puts down again, and that reads back the same: every phase, rank,
// communicator and event.
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "generate/st4np_file.hpp"
#include "generate/st4np_writer.hpp"

namespace {

bool same(const p3s::core::ScaledTrace& a, const p3s::core::ScaledTrace& b) {
  if (a.nprocs() != b.nprocs() || a.phases().size() != b.phases().size()) return false;
  for (std::size_t p = 0; p < a.phases().size(); ++p) {
    if (a.phases()[p].name != b.phases()[p].name || a.phases()[p].weight != b.phases()[p].weight) {
      return false;
    }
  }
  std::vector<p3s::core::Event> ea, eb;
  for (int r = 0; r < a.nprocs(); ++r) {
    if (a.communicators(r) != b.communicators(r)) return false;
    for (std::size_t p = 0; p < a.phases().size(); ++p) {
      ea.clear();
      eb.clear();
      a.phase_events(static_cast<int>(p), r, ea);
      b.phase_events(static_cast<int>(p), r, eb);
      if (ea != eb) return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p3s;
  namespace fs = std::filesystem;
  const fs::path dir = fuzz::scratch_dir();
  std::ofstream(dir / "st4np.txt", std::ios::binary) << fuzz::as_text(data, size);
  std::unique_ptr<generate::St4npFile> read;
  try {
    read = std::make_unique<generate::St4npFile>(dir / "st4np.txt");
  } catch (const std::runtime_error&) {
    return 0;
  }
  {
    std::ofstream again(dir / "again.txt");
    generate::write_st4np(*read, again, 0, read->nprocs() - 1);
  }
  try {
    if (!same(*read, generate::St4npFile(dir / "again.txt"))) {
      fuzz::broken("an ST4NP written from what was read reads back differently");
    }
  } catch (const std::runtime_error& e) {
    fuzz::broken(std::string("an ST4NP written from what was read does not read back: ") +
                 e.what());
  }
  return 0;
}
