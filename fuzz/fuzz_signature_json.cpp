// signature.json: parse; on success the signature must write back to a file that reads again,
// and its summary must print.
#include "core/format_error.hpp"
#include "fuzz_input.hpp"
#include "signature/signature_json.hpp"
#include "signature/summary_table.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p3s;
  using nlohmann::json;
  signature::Signature sig;
  try {
    const json j = json::parse(fuzz::as_text(data, size));
    sig = signature::signature_from_json(j, "signature.json");
  } catch (const json::exception&) {
    return 0;  // not JSON (a parse error, or a number no double holds)
  } catch (const core::FormatError&) {
    return 0;
  }
  try {
    const json again = json::parse(signature::signature_to_json(sig).dump());
    signature::signature_from_json(again, "rewritten");
  } catch (const std::exception& e) {
    fuzz::broken(std::string("an accepted signature does not read back: ") + e.what());
  }
  signature::summary_table(sig);
  return 0;
}
