// JSON for fitted scaling models: the equation text for a person, the numbers for a program.
// Doubles are written with enough digits to read back bit for bit.
#include <nlohmann/json.hpp>

#include "core/json_read.hpp"
#include "model/scaling_fit.hpp"

namespace p3s::model {
namespace {

std::string_view variable_name(TermVariable v) {
  switch (v) {
    case TermVariable::Index:
      return "index";
    case TermVariable::Face:
      return "face";
    case TermVariable::N:
      break;
  }
  return "n";
}

TermVariable variable_from_name(const std::string& name) {
  if (name == "n") return TermVariable::N;
  if (name == "index") return TermVariable::Index;
  if (name == "face") return TermVariable::Face;
  throw std::invalid_argument("unknown term variable '" + name + "'");
}

}  // namespace

void to_json(nlohmann::json& out, const ScalingFit& fit) {
  out = nlohmann::json::object();
  out["equation"] = fit.equation();
  out["form"] = scaling_form_name(fit.form);
  if (fit.form == ScalingForm::Displacement) out["family"] = fit.family;
  if (fit.form == ScalingForm::Face) {
    out["face"] = {{"shape", grid_shape_name(fit.face.shape)},
                   {"dimension", fit.face.dimension},
                   {"planes", fit.face.planes}};
  }
  out["constant"] = fit.constant;
  nlohmann::json terms = nlohmann::json::array();
  for (const FittedTerm& t : fit.terms) {
    terms.push_back({{"coefficient", t.coefficient},
                     {"variable", variable_name(t.term.variable)},
                     {"exponent", t.term.exponent},
                     {"log2_power", t.term.log2_power}});
  }
  out["terms"] = std::move(terms);
  const FitQuality& q = fit.quality;
  out["quality"] = {
      {"points", q.points},
      {"r_squared", q.r_squared},
      {"loo_error_pct", q.loo_error_pct ? nlohmann::json(*q.loo_error_pct) : nullptr},
      {"max_error_pct", q.max_error_pct},
      {"selection", q.selection},
      {"noise_pct", q.noise_pct},
      {"within_noise", q.within_noise},
      {"trusted_up_to", q.trusted_up_to ? nlohmann::json(*q.trusted_up_to) : nullptr}};
  if (!fit.training.empty()) {
    nlohmann::json training = nlohmann::json::array();
    for (const ScalingPoint& p : fit.training) training.push_back({p.n, p.y});
    out["training"] = std::move(training);
  }
  if (!fit.alternatives.empty()) out["alternatives"] = fit.alternatives;
}

void from_json(const nlohmann::json& in, ScalingFit& fit) {
  fit = ScalingFit{};
  fit.form = scaling_form_from_name(in.at("form").get<std::string>());
  if (fit.form == ScalingForm::Displacement) fit.family = in.at("family").get<ProcessCountFamily>();
  if (fit.form == ScalingForm::Face) {
    fit.face.shape = grid_shape_from_name(in.at("face").at("shape").get<std::string>());
    fit.face.dimension =
        core::json_int32(in.at("face").at("dimension"), 0, grid_dimensions(fit.face.shape) - 1);
    fit.face.planes = core::json_int32(in.at("face").at("planes"), 0, 1 << 30);
  }
  // Finite numbers (JSON has no others, but a value may not fit a double or an int).
  fit.constant = core::json_number(in.at("constant"));
  for (const nlohmann::json& t : in.at("terms")) {
    FittedTerm term;
    term.coefficient = core::json_number(t.at("coefficient"));
    term.term.variable = variable_from_name(t.at("variable").get<std::string>());
    term.term.exponent = core::json_number(t.at("exponent"));
    term.term.log2_power = static_cast<int>(core::json_integer(t.at("log2_power"), 0, 8));
    fit.terms.push_back(term);
  }
  const nlohmann::json& q = in.at("quality");
  fit.quality.points = static_cast<std::size_t>(core::json_integer(q.at("points"), 0));
  fit.quality.r_squared = core::json_number(q.at("r_squared"));
  if (!q.at("loo_error_pct").is_null())
    fit.quality.loo_error_pct = core::json_number(q["loo_error_pct"], 0);
  fit.quality.max_error_pct = core::json_number(q.at("max_error_pct"), 0);
  fit.quality.selection = q.at("selection").get<std::string>();
  fit.quality.noise_pct = q.at("noise_pct").get<double>();
  fit.quality.within_noise = q.at("within_noise").get<bool>();
  if (!q.at("trusted_up_to").is_null())
    fit.quality.trusted_up_to = q["trusted_up_to"].get<double>();
  // Absent from SLTs written before the predictive interval: such a fit has no interval.
  if (in.contains("training")) {
    for (const nlohmann::json& p : in["training"]) {
      if (!p.is_array() || p.size() != 2) throw std::invalid_argument("a training run is [n, y]");
      fit.training.push_back({core::json_number(p[0], 1), core::json_number(p[1])});
    }
  }
  if (in.contains("alternatives")) {
    for (const nlohmann::json& a : in["alternatives"]) {
      ScalingFit alternative = a.get<ScalingFit>();
      if (!alternative.alternatives.empty() || !alternative.training.empty())
        throw std::invalid_argument("an alternative form has no training or alternatives");
      fit.alternatives.push_back(std::move(alternative));
    }
  }
}

}  // namespace p3s::model
