#pragma once
// The list file that `smpirun -trace-ti` writes: one rank file per line.
#include <filesystem>
#include <vector>

namespace p3s::ti {

// Reads LIST and finds each file it names. SMPI writes the names as given to it, relative to
// the directory smpirun ran in, into LIST_files/ beside LIST; so a relative name is looked up
// relative to LIST's directory, then to `cwd`, then as LIST's directory plus the name's last
// two components (the LIST_files/ directory moved along with LIST). Throws FormatError naming
// the list line and every path tried when none exists.
std::vector<std::filesystem::path> read_ti_list(const std::filesystem::path& list,
                                                const std::filesystem::path& cwd);

}  // namespace p3s::ti
