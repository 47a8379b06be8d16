// JSON for peer rules: the rule's text for a person, its parameters for a program.
#include <nlohmann/json.hpp>

#include "model/overloaded.hpp"
#include "model/peer_rule.hpp"

namespace p3s::model {

void to_json(nlohmann::json& out, const PeerRule& rule) {
  out = nlohmann::json::object();
  out["text"] = rule.text();
  out["none_for_self"] = rule.none_for_self;
  std::visit(Overloaded{
                 [&out](const NoPeerRule&) { out["kind"] = "none"; },
                 [&out](const FixedPeerRule& r) {
                   out["kind"] = "fixed";
                   out["peer"] = r.peer;
                   out["skips_self"] = r.skips_self;
                 },
                 [&out](const ShiftPeerRule& r) {
                   out["kind"] = "shift";
                   out["distance"] = r.distance;
                   out["periodic"] = r.periodic;
                 },
                 [&out](const XorPeerRule& r) {
                   out["kind"] = "xor";
                   out["bit"] = r.bit;
                 },
                 [&out](const PermutationPeerRule& r) {
                   out["kind"] = "permutation";
                   out["permutation"] = permutation_name(r.permutation);
                 },
                 [&out](const GridPeerRule& r) {
                   out["kind"] = "grid";
                   out["shape"] = grid_shape_name(r.shape);
                   out["order"] = grid_order_name(r.order);
                   out["offset"] = r.offset;
                   out["periodic"] = r.periodic;
                   out["planes"] = r.planes;
                 },
             },
             rule.form);
}

void from_json(const nlohmann::json& in, PeerRule& rule) {
  const std::string kind = in.at("kind").get<std::string>();
  if (kind == "none") {
    rule.form = NoPeerRule{};
  } else if (kind == "fixed") {
    rule.form = FixedPeerRule{in.at("peer").get<IntegerFormula>(), in.at("skips_self").get<bool>()};
  } else if (kind == "shift") {
    rule.form =
        ShiftPeerRule{in.at("distance").get<IntegerFormula>(), in.at("periodic").get<bool>()};
  } else if (kind == "xor") {
    rule.form = XorPeerRule{in.at("bit").get<IntegerFormula>()};
  } else if (kind == "permutation") {
    rule.form = PermutationPeerRule{permutation_from_name(in.at("permutation").get<std::string>())};
  } else if (kind == "grid") {
    GridPeerRule grid;
    grid.shape = grid_shape_from_name(in.at("shape").get<std::string>());
    grid.order = grid_order_from_name(in.at("order").get<std::string>());
    grid.offset = in.at("offset").get<std::vector<IntegerFormula>>();
    grid.periodic = in.at("periodic").get<std::vector<bool>>();
    grid.planes = in.at("planes").get<std::int64_t>();
    if (grid.planes < 0) throw std::invalid_argument("a grid rule's planes are 0 or more");
    const auto dims = static_cast<std::size_t>(grid_dimensions(grid.shape));
    if (grid.offset.size() != dims || grid.periodic.size() != dims) {
      throw std::invalid_argument("grid rule needs one offset and one periodic flag per dimension");
    }
    rule.form = std::move(grid);
  } else {
    throw std::invalid_argument("unknown peer rule kind '" + kind + "'");
  }
  rule.none_for_self = in.at("none_for_self").get<bool>();
}

}  // namespace p3s::model
