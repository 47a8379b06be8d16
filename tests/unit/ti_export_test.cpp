// TI export: the actions SimGrid 3.32's replay reads, one file per rank and a list.
#include "ti/ti_export.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/synthetic_trace.hpp"

namespace p3s::ti {
namespace {

using sim::StencilShape;
using sim::StencilTrace;

std::string read(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::filesystem::path fresh_dir(const std::string& name) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "p3s_ti_export_test" / name;
  std::filesystem::remove_all(dir);
  return dir;
}

TEST(TiExport, WritesTheStencilAsReplayActions) {
  StencilShape shape;
  shape.side = 2;
  shape.halo_bytes = 100;
  shape.halo_compute_ns = 2'000'000;
  shape.residual_compute_ns = 500'000;
  shape.halo_weight = 2;
  shape.residual_weight = 1;
  const std::filesystem::path dir = fresh_dir("full");
  TiExportOptions o;
  o.host_speed = 1e9;
  o.cpu_speedup = 2;
  const auto lists = export_ti(StencilTrace(shape), dir, o);
  ASSERT_EQ(lists.size(), 1u);
  EXPECT_EQ(lists[0], dir / "ti.list");
  const std::string list = read(lists[0]);
  EXPECT_EQ(list, (std::filesystem::absolute(dir) / "rank-00000.ti").string() + "\n" +
                      (std::filesystem::absolute(dir) / "rank-00001.ti").string() + "\n" +
                      (std::filesystem::absolute(dir) / "rank-00002.ti").string() + "\n" +
                      (std::filesystem::absolute(dir) / "rank-00003.ti").string() + "\n");
  // On a 2 x 2 torus rank 0's east and west neighbours are both rank 1, south and north rank 2.
  const std::string halo =
      "0 compute 1000000\n"
      "0 irecv 1 7 100\n0 irecv 1 7 100\n0 irecv 2 7 100\n0 irecv 2 7 100\n"
      "0 isend 1 7 100\n0 isend 1 7 100\n0 isend 2 7 100\n0 isend 2 7 100\n"
      "0 wait 1 0 7\n0 wait 1 0 7\n0 wait 2 0 7\n0 wait 2 0 7\n"
      "0 wait 0 1 7\n0 wait 0 1 7\n0 wait 0 2 7\n0 wait 0 2 7\n";
  EXPECT_EQ(read(dir / "rank-00000.ti"),
            "0 init\n" + halo + halo + "0 compute 250000\n0 allreduce 8 0\n0 finalize\n");
}

TEST(TiExport, PerPhaseWritesOneTraceSetPerPhase) {
  StencilShape shape;
  shape.side = 2;
  const std::filesystem::path dir = fresh_dir("per-phase");
  TiExportOptions o;
  o.layout = TiLayout::PerPhase;
  o.measured_repetitions = 2;
  const auto lists = export_ti(StencilTrace(shape), dir, o);
  ASSERT_EQ(lists.size(), 2u);
  EXPECT_EQ(lists[1], dir / "phase-1" / "ti.list");
  // A warm-up and 2 measured repetitions of the residual phase.
  EXPECT_EQ(read(dir / "phase-1" / "rank-00003.ti"),
            "3 init\n3 compute 100000\n3 allreduce 8 0\n3 compute 100000\n3 allreduce 8 0\n"
            "3 compute 100000\n3 allreduce 8 0\n3 finalize\n");
}

}  // namespace
}  // namespace p3s::ti
