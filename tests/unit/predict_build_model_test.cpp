// build_model's refusals and warnings (predict/build_model): what the caller must change comes
// as a core::RequestError, what it let through is said to its warning sink, never printed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/format_error.hpp"
#include "core/request_error.hpp"
#include "predict/build_model.hpp"

namespace p3s::predict {
namespace {

signature::Signature run_at(const std::string& dir, int nprocs) {
  signature::Signature sig;
  sig.run_dir = dir;
  sig.run.nprocs = nprocs;
  sig.run.command = {"./app", std::to_string(nprocs)};
  return sig;
}

TEST(BuildModel, ARunGivenTwiceIsARequestError) {
  ModelRequest request;
  request.training = {run_at("runs/n4", 4), run_at("runs/n4", 4)};
  EXPECT_THROW(build_model(request), core::RequestError);
}

TEST(BuildModel, AnIncompleteRunIsRefusedUnlessAllowedThenNamedToTheWarningSink) {
  ModelRequest request;
  request.training = {run_at("runs/n4", 4), run_at("runs/n8", 8)};
  request.training[1].run.complete = false;
  request.training[1].run.exit_code = 1;
  std::vector<std::string> heard;
  request.warning = [&](const std::string& line) { heard.push_back(line); };
  try {
    build_model(request);
    ADD_FAILURE() << "an incomplete run was modelled without allow_incomplete";
  } catch (const core::RequestError& e) {
    EXPECT_EQ(std::string(e.what()),
              "runs/n8 is incomplete (run.json says so; exit status 1): its phases and weights "
              "stop where it stopped; trace it again, or give --allow-incomplete to model it "
              "anyway");
  }
  EXPECT_TRUE(heard.empty());

  request.allow_incomplete = true;
  // The warning comes before the runs' directories are read, and these have none.
  EXPECT_THROW(build_model(request), core::FormatError);
  EXPECT_EQ(heard, (std::vector<std::string>{"runs/n8 is incomplete (run.json says so; exit "
                                             "status 1): modelled anyway (--allow-incomplete)"}));
}

}  // namespace
}  // namespace p3s::predict
