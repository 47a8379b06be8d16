// The report library: speedup and efficiency by their definitions on hand-made points, the log
// axis's pixels and ticks, and the CSV, JSON and SVG renderings of a prediction.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "csv_rows.hpp"
#include "report/log_axis.hpp"
#include "report/report_files.hpp"
#include "report/scaling_plot.hpp"
#include "report/scaling_prediction.hpp"
#include "report/whatif_plot.hpp"
#include "report/whatif_report.hpp"

namespace p3s::report {
namespace {

// Three points n0 = 4, 16, 64 with the given PETs; runs measured at 4 and 16.
ScalingPrediction three_points(double pet4, double pet16, double pet64, bool weak) {
  ScalingPrediction p;
  p.application = "stencil2d 64 40";
  p.platform = "default.xml";
  p.mode = "per-phase";
  p.weak_scaling = weak;
  p.points = {{4, true, pet4, 1000, 0.5, 1.0, {}, {}},
              {16, true, pet16, 4000, 1.5, 1.0, {}, {}},
              {64, false, pet64, 0, 0, 1.0, {}, {}}};
  p.measured = {{4, 8.0, "runs/n4"}, {16, 5.0, "runs/n16"}};
  return p;
}

TEST(ScalingPrediction, StrongScalingSpeedupIsThePetRatio) {
  const ScalingPrediction p = three_points(10, 4, 2, false);
  // S(N) = PET(4) / PET(N), E(N) = S(N) x 4 / N.
  EXPECT_DOUBLE_EQ(p.speedup(p.points[0]), 1.0);
  EXPECT_DOUBLE_EQ(p.speedup(p.points[1]), 2.5);
  EXPECT_DOUBLE_EQ(p.speedup(p.points[2]), 5.0);
  EXPECT_DOUBLE_EQ(p.efficiency(p.points[0]), 1.0);
  EXPECT_DOUBLE_EQ(p.efficiency(p.points[1]), 2.5 * 4 / 16);
  EXPECT_DOUBLE_EQ(p.efficiency(p.points[2]), 5.0 * 4 / 64);
}

TEST(ScalingPrediction, WeakScalingSpeedupIsScaledByN) {
  const ScalingPrediction p = three_points(10, 11, 12.5, true);
  // Scaled speedup S(N) = PET(4) / PET(N) x N / 4; its efficiency is then PET(4) / PET(N).
  EXPECT_DOUBLE_EQ(p.speedup(p.points[0]), 1.0);
  EXPECT_DOUBLE_EQ(p.speedup(p.points[1]), 10.0 / 11 * 4);
  EXPECT_DOUBLE_EQ(p.speedup(p.points[2]), 10.0 / 12.5 * 16);
  EXPECT_DOUBLE_EQ(p.efficiency(p.points[1]), 10.0 / 11);
  EXPECT_DOUBLE_EQ(p.efficiency(p.points[2]), 0.8);
}

TEST(ScalingPrediction, PerfectScalingHasEfficiencyOne) {
  // Strong: PET halves when N doubles. Weak: PET stays the same.
  ScalingPrediction strong = three_points(16, 4, 1, false);
  ScalingPrediction weak = three_points(3, 3, 3, true);
  for (const PredictedPoint& pt : strong.points) {
    EXPECT_DOUBLE_EQ(strong.speedup(pt), static_cast<double>(pt.n) / 4);
    EXPECT_DOUBLE_EQ(strong.efficiency(pt), 1.0);
  }
  for (const PredictedPoint& pt : weak.points) {
    EXPECT_DOUBLE_EQ(weak.speedup(pt), static_cast<double>(pt.n) / 4);
    EXPECT_DOUBLE_EQ(weak.efficiency(pt), 1.0);
  }
}

TEST(ScalingPrediction, NoSpeedupForAZeroPet) {
  ScalingPrediction p = three_points(10, 0, 2, false);
  EXPECT_EQ(p.speedup(p.points[1]), 0.0);
  EXPECT_EQ(p.efficiency(p.points[1]), 0.0);
  p.points.clear();
  EXPECT_EQ(p.speedup(PredictedPoint{4, false, 1.0, 0, 0, 1.0, {}, {}}), 0.0);
}

TEST(ScalingPrediction, DifferenceAgainstTheMeasuredRun) {
  const ScalingPrediction p = three_points(10, 4, 2, false);
  // (PET - AET) / AET: (10 - 8) / 8 and (4 - 5) / 5.
  ASSERT_TRUE(p.difference_pct(p.points[0]));
  EXPECT_DOUBLE_EQ(*p.difference_pct(p.points[0]), 25.0);
  ASSERT_TRUE(p.difference_pct(p.points[1]));
  EXPECT_DOUBLE_EQ(*p.difference_pct(p.points[1]), -20.0);
  EXPECT_FALSE(p.difference_pct(p.points[2])) << "no run at n = 64";

  ScalingPrediction zero = p;
  zero.measured[0].aet_seconds = 0;
  EXPECT_FALSE(zero.difference_pct(zero.points[0])) << "no difference against a zero AET";
}

TEST(LogAxis, PowersOfTwoFrom4To4096) {
  const LogAxis a(4, 4096, 100, 1100, 2);
  EXPECT_DOUBLE_EQ(a.lo(), 4);
  EXPECT_DOUBLE_EQ(a.hi(), 4096);
  // 2^2 .. 2^12 over 1000 pixels: 100 pixels per doubling.
  EXPECT_NEAR(a.pixel(4), 100, 1e-9);
  EXPECT_NEAR(a.pixel(4096), 1100, 1e-9);
  EXPECT_NEAR(a.pixel(64), 500, 1e-9);
  EXPECT_NEAR(a.pixel(8), 200, 1e-9);
  EXPECT_NEAR(a.pixel(std::sqrt(2.0) * 4), 150, 1e-9);

  // Ten doublings: every other power, so that the labels do not collide.
  const std::vector<Tick> ticks = a.ticks(count_label);
  std::vector<double> values;
  std::vector<std::string> labels;
  for (const Tick& t : ticks) values.push_back(t.value), labels.push_back(t.label);
  EXPECT_EQ(values, (std::vector<double>{4, 16, 64, 256, 1024, 4096}));
  EXPECT_EQ(labels, (std::vector<std::string>{"4", "16", "64", "256", "1024", "4096"}));
}

TEST(LogAxis, WidensToWholePowers) {
  // 5..100 in base 2 spans 2^2 .. 2^7; every power is a tick (5 doublings).
  const LogAxis a(5, 100, 0, 500, 2);
  EXPECT_DOUBLE_EQ(a.lo(), 4);
  EXPECT_DOUBLE_EQ(a.hi(), 128);
  std::vector<double> values;
  for (const Tick& t : a.ticks(count_label)) values.push_back(t.value);
  EXPECT_EQ(values, (std::vector<double>{4, 8, 16, 32, 64, 128}));
  EXPECT_NEAR(a.pixel(16), 200, 1e-9);
}

TEST(LogAxis, SecondsInBaseTenWithTwoAndFiveBetweenDecades) {
  // A y axis: larger values higher up, so the pixels run backwards.
  const LogAxis a(1e-3, 2e-2, 390, 70, 10);
  EXPECT_DOUBLE_EQ(a.lo(), 1e-3);
  EXPECT_DOUBLE_EQ(a.hi(), 1e-1);
  EXPECT_NEAR(a.pixel(1e-3), 390, 1e-9);
  EXPECT_NEAR(a.pixel(1e-1), 70, 1e-9);
  EXPECT_NEAR(a.pixel(1e-2), 230, 1e-9);

  const std::vector<Tick> ticks = a.ticks(seconds_label);
  ASSERT_EQ(ticks.size(), 7u);
  const double expected[] = {1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 1e-1};
  const char* labels[] = {"1 ms", "2 ms", "5 ms", "10 ms", "20 ms", "50 ms", "100 ms"};
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    EXPECT_NEAR(ticks[i].value, expected[i], 1e-12 * expected[i] / 1e-3) << i;
    EXPECT_EQ(ticks[i].label, labels[i]) << i;
  }
}

TEST(LogAxis, ASingleValueStillSpansOneStep) {
  const LogAxis a(64, 64, 0, 100, 2);
  EXPECT_DOUBLE_EQ(a.lo(), 64);
  EXPECT_DOUBLE_EQ(a.hi(), 128);
  EXPECT_NEAR(a.pixel(64), 0, 1e-9);
  const LogAxis b(3.7, 3.7, 0, 100, 10);
  EXPECT_DOUBLE_EQ(b.lo(), 1);
  EXPECT_DOUBLE_EQ(b.hi(), 10);
  EXPECT_NEAR(b.pixel(3.7), 100 * std::log10(3.7), 1e-9);
}

TEST(TickLabels, Counts) {
  EXPECT_EQ(count_label(1), "1");
  EXPECT_EQ(count_label(4096), "4096");
  EXPECT_EQ(count_label(65536), "65536");
  EXPECT_EQ(count_label(0.5), "0.5");
  EXPECT_EQ(count_label(150000), "150k");
  EXPECT_EQ(count_label(2e6), "2M");
  EXPECT_EQ(count_label(131072), "128k");  // powers of two from 2^17: binary multiples
  EXPECT_EQ(count_label(1048576), "1M");
  EXPECT_EQ(count_label(4194304), "4M");
}

TEST(TickLabels, Seconds) {
  EXPECT_EQ(seconds_label(3), "3 s");
  EXPECT_EQ(seconds_label(1.5), "1.5 s");
  EXPECT_EQ(seconds_label(0.25), "250 ms");
  EXPECT_EQ(seconds_label(2e-3), "2 ms");
  EXPECT_EQ(seconds_label(1e-4), "100 \u00b5s");
  EXPECT_EQ(seconds_label(2.5e-5), "25 \u00b5s");
  EXPECT_EQ(seconds_label(5e-9), "5 ns");
  // Below a second, to the next smaller unit's thousandth at most.
  EXPECT_EQ(seconds_label(0.0123456), "12.346 ms");
  EXPECT_EQ(seconds_label(1.2345678e-5), "12.346 \u00b5s");
}

TEST(PredictionCsv, OneRowPerPoint) {
  const ScalingPrediction p = three_points(10, 4, 2, false);
  const auto rows = testing::csv_rows(prediction_csv(p));
  ASSERT_EQ(rows.size(), 1 + p.points.size());
  EXPECT_EQ(rows[0], (std::vector<std::string>{"n", "pet_seconds", "speedup", "efficiency",
                                               "traced", "measured_aet_seconds", "covered",
                                               "pet_low_seconds", "pet_high_seconds"}));
  // n, PET, S = 10 / PET, E = S x 4 / n, traced, the run's AET (empty: none at 64), covered,
  // and no interval (empty).
  const double expected[3][4] = {{4, 10, 1, 1}, {16, 4, 2.5, 0.625}, {64, 2, 5, 0.3125}};
  const char* traced[] = {"1", "1", "0"};
  const char* aet[] = {"8", "5", ""};
  for (std::size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE("row " + std::to_string(i + 1));
    ASSERT_EQ(rows[i + 1].size(), 9u);
    for (std::size_t k = 0; k < 4; ++k) EXPECT_DOUBLE_EQ(std::stod(rows[i + 1][k]), expected[i][k]);
    EXPECT_EQ(rows[i + 1][4], traced[i]);
    EXPECT_EQ(rows[i + 1][5], aet[i]);
    EXPECT_EQ(rows[i + 1][6], "1");
    EXPECT_EQ(rows[i + 1][7], "");
    EXPECT_EQ(rows[i + 1][8], "");
  }
}

TEST(PredictionCsv, KeepsNineSignificantDigits) {
  ScalingPrediction p = three_points(0.123456789, 4, 2, false);
  p.measured[0].aet_seconds = 0.000987654321;
  const auto rows = testing::csv_rows(prediction_csv(p));
  ASSERT_GE(rows.size(), 2u);
  EXPECT_NEAR(std::stod(rows[1][1]), 0.123456789, 1e-15);
  EXPECT_NEAR(std::stod(rows[1][5]), 0.000987654321, 1e-12);
}

TEST(PredictionJson, KeysAndValues) {
  ScalingPrediction p = three_points(10, 11, 12.5, true);
  p.fits = {{"phase_1", true, "exact", "W = 40", 0.5, 1.25, 2.0},
            {"phase_2", false, "NOT MODELLED", "W = 1", 0, std::nullopt, 3.0}};
  p.not_modelled = {"phase_2: pattern not modelled"};
  p.warnings = {"N = 50 not predicted: not a square"};
  const nlohmann::json j = prediction_json(p);

  const std::set<std::string> keys = {"format", "application", "scaling",      "platform",
                                      "mode",   "engine",      "points",       "measured",
                                      "phases", "coverage",    "not_modelled", "warnings"};
  std::set<std::string> got;
  for (const auto& [key, value] : j.items()) got.insert(key);
  EXPECT_EQ(got, keys);
  EXPECT_EQ(j["format"].get<std::string>(), "p3s-prediction 1");
  EXPECT_EQ(j["application"].get<std::string>(), "stencil2d 64 40");
  EXPECT_EQ(j["scaling"].get<std::string>(), "weak");
  EXPECT_EQ(j["platform"].get<std::string>(), "default.xml");
  EXPECT_EQ(j["mode"].get<std::string>(), "per-phase");
  EXPECT_EQ(j["engine"].get<std::string>(), "simgrid");
  EXPECT_EQ(j["not_modelled"].get<std::vector<std::string>>(),
            std::vector<std::string>{"phase_2: pattern not modelled"});
  EXPECT_EQ(j["warnings"].get<std::vector<std::string>>(),
            std::vector<std::string>{"N = 50 not predicted: not a square"});

  ASSERT_EQ(j["points"].size(), 3u);
  const std::set<std::string> point_keys = {"n",
                                            "pet_seconds",
                                            "speedup",
                                            "efficiency",
                                            "traced",
                                            "simulated_events",
                                            "simulation_wall_seconds",
                                            "covered",
                                            "omitted"};
  for (std::size_t i = 0; i < 3; ++i) {
    const nlohmann::json& pt = j["points"][i];
    std::set<std::string> pk;
    for (const auto& [key, value] : pt.items()) pk.insert(key);
    std::set<std::string> want = point_keys;
    if (i < 2) want.insert("difference_from_measured_pct");  // runs at 4 and 16 only
    EXPECT_EQ(pk, want) << pt.dump();
  }
  const nlohmann::json& p16 = j["points"][1];
  EXPECT_EQ(p16["n"].get<int>(), 16);
  EXPECT_DOUBLE_EQ(p16["pet_seconds"].get<double>(), 11);
  EXPECT_DOUBLE_EQ(p16["speedup"].get<double>(), 10.0 / 11 * 4);
  EXPECT_DOUBLE_EQ(p16["efficiency"].get<double>(), 10.0 / 11);
  EXPECT_TRUE(p16["traced"].get<bool>());
  EXPECT_EQ(p16["simulated_events"].get<int>(), 4000);
  EXPECT_DOUBLE_EQ(p16["simulation_wall_seconds"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(p16["difference_from_measured_pct"].get<double>(), 100.0 * (11 - 5) / 5);
  EXPECT_FALSE(j["points"][2]["traced"].get<bool>());

  ASSERT_EQ(j["measured"].size(), 2u);
  EXPECT_EQ(j["measured"][1].dump(),
            (nlohmann::json{{"n", 16}, {"aet_seconds", 5.0}, {"run", "runs/n16"}}).dump());

  ASSERT_EQ(j["phases"].size(), 2u);
  EXPECT_EQ(j["phases"][0]["name"].get<std::string>(), "phase_1");
  EXPECT_TRUE(j["phases"][0]["pattern_modelled"].get<bool>());
  EXPECT_EQ(j["phases"][0]["weight"].get<std::string>(), "W = 40");
  EXPECT_DOUBLE_EQ(j["phases"][0]["weight_error_pct"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(j["phases"][0]["volume_error_pct"].get<double>(), 1.25);
  EXPECT_DOUBLE_EQ(j["phases"][0]["compute_error_pct"].get<double>(), 2.0);
  EXPECT_FALSE(j["phases"][1].contains("volume_error_pct")) << "no messages, no volume error";
  EXPECT_FALSE(j["phases"][1]["pattern_modelled"].get<bool>());
}

TEST(PredictionJson, StrongScaling) {
  const nlohmann::json j = prediction_json(three_points(10, 4, 2, false));
  EXPECT_EQ(j["scaling"].get<std::string>(), "strong");
  EXPECT_DOUBLE_EQ(j["points"][2]["speedup"].get<double>(), 5.0);
}

TEST(PredictionTable, OneLinePerPointWithTheMeasuredTime) {
  const std::string table = prediction_table(three_points(10, 4, 2, false));
  std::istringstream in(table);
  std::string line;
  int rows = 0;
  while (std::getline(in, line)) {
    std::istringstream cells(line);
    std::string n, pet;
    cells >> n >> pet;
    if (n == "4") {
      EXPECT_NE(line.find("+25.0 %"), std::string::npos) << line;
    }
    if (n == "16") {
      EXPECT_NE(line.find("-20.0 %"), std::string::npos) << line;
    }
    if (n == "4" || n == "16" || n == "64") ++rows;
  }
  EXPECT_EQ(rows, 3) << table;
}

// --- SVG -------------------------------------------------------------------------------------

struct Element {
  std::string name;
  std::string attributes;
};

// A small XML check: every tag closes in order, attributes are quoted, and text holds no raw
// '<' or unescaped '&'. Returns the start tags, or fails the test.
std::vector<Element> parse_xml(const std::string& xml) {
  std::vector<Element> elements;
  std::vector<std::string> open;
  static const std::regex entity(R"(&(amp|lt|gt|quot|apos|#[0-9]+);)");
  auto check_text = [](const std::string& text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '&') {
        const std::string rest = text.substr(i, 8);
        EXPECT_TRUE(std::regex_search(rest, entity, std::regex_constants::match_continuous))
            << "unescaped '&' in: " << text;
      }
    }
  };
  std::size_t i = 0;
  while (i < xml.size()) {
    const std::size_t lt = xml.find('<', i);
    check_text(xml.substr(i, lt == std::string::npos ? std::string::npos : lt - i));
    if (lt == std::string::npos) break;
    if (xml.compare(lt, 5, "<?xml") == 0) {
      i = xml.find("?>", lt) + 2;
      continue;
    }
    // Attribute values may hold '>' only when quoted: scan for the closing '>' outside quotes.
    std::size_t gt = lt + 1;
    char quote = 0;
    for (; gt < xml.size(); ++gt) {
      if (quote) {
        if (xml[gt] == quote) quote = 0;
      } else if (xml[gt] == '"' || xml[gt] == '\'') {
        quote = xml[gt];
      } else if (xml[gt] == '>') {
        break;
      }
    }
    if (gt >= xml.size()) {
      ADD_FAILURE() << "unterminated tag at " << lt;
      return elements;
    }
    const std::string tag = xml.substr(lt + 1, gt - lt - 1);
    i = gt + 1;
    if (tag.starts_with("/")) {
      const std::string name = tag.substr(1);
      if (open.empty() || open.back() != name) {
        ADD_FAILURE() << "</" << name << "> closes " << (open.empty() ? "nothing" : open.back());
        return elements;
      }
      open.pop_back();
      continue;
    }
    const bool self_closing = tag.ends_with("/");
    const std::string body = self_closing ? tag.substr(0, tag.size() - 1) : tag;
    const std::size_t space = body.find_first_of(" \n\t");
    Element e{body.substr(0, space), space == std::string::npos ? "" : body.substr(space)};
    static const std::regex attrs(R"((\s+[A-Za-z_:][-A-Za-z0-9_:.]*="[^"<]*")*\s*)");
    EXPECT_TRUE(std::regex_match(e.attributes, attrs)) << "bad attributes: <" << tag << ">";
    check_text(e.attributes);
    if (!self_closing) open.push_back(e.name);
    elements.push_back(std::move(e));
  }
  EXPECT_TRUE(open.empty()) << "unclosed <" << (open.empty() ? "" : open.back()) << ">";
  return elements;
}

// The checker itself finds what it is there to find.
TEST(XmlCheck, FindsBrokenMarkup) {
  EXPECT_NONFATAL_FAILURE(parse_xml("<svg><text>a & b</text></svg>"), "unescaped '&'");
  EXPECT_NONFATAL_FAILURE(parse_xml("<svg><text>a</svg>"), "closes text");
  EXPECT_NONFATAL_FAILURE(parse_xml("<svg><g>"), "unclosed <g>");
  EXPECT_NONFATAL_FAILURE(parse_xml("<svg><text x=1>a</text></svg>"), "bad attributes");
  EXPECT_NONFATAL_FAILURE(parse_xml("<svg><text x=\"<\">a</text></svg>"), "bad attributes");
  const std::vector<Element> ok = parse_xml("<svg a=\"1\"><text>a &amp; b &lt;</text><g/></svg>");
  ASSERT_EQ(ok.size(), 3u);
  EXPECT_EQ(ok[2].name, "g");
}

std::size_t count(const std::vector<Element>& elements, const std::string& name,
                  const std::string& with = "") {
  std::size_t c = 0;
  for (const Element& e : elements) {
    if (e.name == name && e.attributes.find(with) != std::string::npos) ++c;
  }
  return c;
}

double attribute(const Element& e, const std::string& name) {
  const std::regex re("\\s" + name + "=\"([-0-9.e]+)\"");
  std::smatch m;
  if (!std::regex_search(e.attributes, m, re)) {
    ADD_FAILURE() << "no " << name << " in " << e.attributes;
    return 0;
  }
  return std::stod(m[1].str());
}

ScalingPrediction with_points(int count_points, int count_measured, bool weak) {
  ScalingPrediction p;
  p.application = "stencil2d 64 40";
  p.platform = "default.xml";
  p.mode = "per-phase";
  p.weak_scaling = weak;
  for (int i = 0; i < count_points; ++i) {
    const std::int64_t n = std::int64_t{4} << (2 * i);  // 4, 16, 64, ...
    const double pet = weak ? 1.0 + 0.1 * i : 1.0 / (1 << i);
    p.points.push_back({n, i < count_measured, pet, 100, 0.1, 1.0, {}, {}});
    if (i < count_measured) p.measured.push_back({n, pet * 1.1, "run"});
  }
  return p;
}

TEST(ScalingPlotSvg, WellFormedWithAMarkerPerPoint) {
  for (const bool weak : {false, true}) {
    for (const auto& [points, measured] : std::vector<std::pair<int, int>>{{3, 2}, {5, 4}}) {
      SCOPED_TRACE(::testing::Message() << (weak ? "weak" : "strong") << ", " << points
                                        << " points, " << measured << " measured");
      const ScalingPrediction p = with_points(points, measured, weak);
      const std::string svg = scaling_plot_svg(p);
      ASSERT_TRUE(svg.starts_with("<svg ")) << svg.substr(0, 100);
      const std::vector<Element> elements = parse_xml(svg);
      ASSERT_FALSE(elements.empty());
      EXPECT_EQ(elements.front().name, "svg");
      EXPECT_EQ(count(elements, "svg"), 1u);

      // Circles: each predicted point in both panels (PET and speedup), one legend entry each.
      EXPECT_EQ(count(elements, "circle"), 2u * points + 2);
      // Square markers: each measured run in both panels (AET and measured speedup), one legend
      // entry each.
      EXPECT_EQ(count(elements, "rect", "width=\"9\""), 2u * measured + 2);
      // The ideal speedup: one dashed path through every N (and its dashed legend line).
      std::size_t dashed = 0;
      for (const Element& e : elements) {
        if (e.name != "path" || e.attributes.find("stroke-dasharray") == std::string::npos)
          continue;
        ++dashed;
        const std::size_t vertices = std::count(e.attributes.begin(), e.attributes.end(), 'L') +
                                     std::count(e.attributes.begin(), e.attributes.end(), 'M');
        EXPECT_EQ(vertices, static_cast<std::size_t>(points)) << e.attributes;
      }
      EXPECT_EQ(dashed, 1u);
      EXPECT_EQ(count(elements, "line", "stroke-dasharray"), 1u) << "the ideal's legend line";
      EXPECT_NE(svg.find(weak ? "Scaled speedup over N = 4" : "Speedup over N = 4"),
                std::string::npos);

      // The PET panel's circles come first, left to right; on a log scale the steps between
      // N = 4, 16, 64 ... are equal. Strong scaling: PET falls, so the markers go down the
      // picture (larger y); weak: PET grows, so they go up.
      std::vector<const Element*> circles;
      for (const Element& e : elements) {
        if (e.name == "circle") circles.push_back(&e);
      }
      ASSERT_GE(circles.size(), static_cast<std::size_t>(points));
      const double step = attribute(*circles[1], "cx") - attribute(*circles[0], "cx");
      EXPECT_GT(step, 0);
      for (int k = 1; k < points; ++k) {
        EXPECT_NEAR(attribute(*circles[k], "cx") - attribute(*circles[k - 1], "cx"), step, 0.15);
        if (weak) {
          EXPECT_LT(attribute(*circles[k], "cy"), attribute(*circles[k - 1], "cy"));
        } else {
          EXPECT_GT(attribute(*circles[k], "cy"), attribute(*circles[k - 1], "cy"));
          // PET halves at each step: equal steps down on the log axis too.
          if (k >= 2) {
            EXPECT_NEAR(attribute(*circles[k], "cy") - attribute(*circles[k - 1], "cy"),
                        attribute(*circles[1], "cy") - attribute(*circles[0], "cy"), 0.15);
          }
        }
      }
    }
  }
}

TEST(ScalingPlotSvg, EscapesTheApplication) {
  ScalingPrediction p = with_points(3, 2, false);
  p.application = "mpirun -np 4 ./a.out < in.txt && echo \"done\" > log";
  p.platform = "R&D <cluster>.xml";
  const std::string svg = scaling_plot_svg(p);
  parse_xml(svg);
  EXPECT_NE(svg.find("./a.out &lt; in.txt &amp;&amp; echo &quot;done&quot; &gt; log"),
            std::string::npos)
      << svg.substr(0, 600);
  EXPECT_NE(svg.find("R&amp;D &lt;cluster&gt;.xml"), std::string::npos);
  EXPECT_EQ(svg.find("< in.txt"), std::string::npos);
  EXPECT_EQ(svg.find("&& "), std::string::npos);
}

TEST(ScalingPlotSvg, OnePointAndNoMeasuredRuns) {
  const std::string svg = scaling_plot_svg(with_points(1, 0, false));
  const std::vector<Element> elements = parse_xml(svg);
  EXPECT_EQ(count(elements, "circle"), 4u);  // the point and the legend, in each panel
  EXPECT_EQ(count(elements, "rect", "width=\"9\""), 0u);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
}

TEST(ScalingPlotSvg, NothingToDrawWithoutPoints) {
  EXPECT_EQ(scaling_plot_svg(ScalingPrediction{}), "");
}

}  // namespace
}  // namespace p3s::report

namespace p3s::report {
namespace {

// The Synthetic Signature's PET, when there is one, stands beside the simulator's: in the JSON
// points and in a section of the table, with their difference; without one, neither says so.
TEST(PredictionReport, ReplayedPetBesideTheSimulatedOne) {
  ScalingPrediction p = three_points(10, 4, 2, false);
  EXPECT_EQ(prediction_table(p).find("Synthetic Signature"), std::string::npos);
  EXPECT_FALSE(prediction_json(p)["points"][2].contains("replay_pet_seconds"));
  p.points[2].replay_pet_seconds = 2.5;
  const nlohmann::json j = prediction_json(p);
  EXPECT_DOUBLE_EQ(j["points"][2]["replay_pet_seconds"].get<double>(), 2.5);
  EXPECT_FALSE(j["points"][0].contains("replay_pet_seconds"));
  const std::string table = prediction_table(p);
  EXPECT_NE(table.find("Synthetic Signature"), std::string::npos) << table;
  EXPECT_NE(table.find("+25.0%"), std::string::npos) << table;  // (2.5 - 2) / 2
}

}  // namespace
}  // namespace p3s::report

namespace p3s::report {
namespace {

std::vector<TimedCount> curve(const std::vector<std::int64_t>& ns, double (*time)(double)) {
  std::vector<TimedCount> out;
  for (const std::int64_t n : ns) out.push_back({n, time(static_cast<double>(n))});
  return out;
}

const std::vector<std::int64_t> kPowersOfTwo = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};

// Amdahl's law, 1 % serial: T(n) = 1 + 99 / n falls all the way, so the fastest N is the
// largest; E(n) = T(1) / (n T(n)) = 100 / (n + 99) >= 0.5 while n <= 101: 64 of the powers of 2.
TEST(BestN, AmdahlFastestAtTheLargestNEfficientUpTo64) {
  const auto best = best_n(curve(kPowersOfTwo, [](double n) { return 1 + 99 / n; }), 0.5);
  ASSERT_TRUE(best);
  EXPECT_EQ(best->base_n, 1);
  EXPECT_EQ(best->fastest.n, 1024);
  EXPECT_DOUBLE_EQ(best->fastest.seconds, 1 + 99.0 / 1024);
  EXPECT_EQ(best->largest_efficient.n, 64);
  EXPECT_NEAR(best->efficiency, 100.0 / (64 + 99), 1e-12);
  // A stricter threshold, 0.8: 100 / (n + 99) >= 0.8 while n <= 26, so 16.
  EXPECT_EQ(
      best_n(curve(kPowersOfTwo, [](double n) { return 1 + 99 / n; }), 0.8)->largest_efficient.n,
      16);
}

// Work divided plus communication growing with n: T(n) = 100 / n + n / 4 is lowest at
// n = 20 (dT/dn = 0), so of the powers of 2 at 16 (10.25 s; 32 gives 11.125 s); E(n) =
// T(1) / (n T(n)) = 100.25 / (100 + n^2 / 4) >= 0.5 while n <= 20.05: 16 again.
TEST(BestN, CommunicationGrowthTurnsTheCurveUp) {
  const std::vector<std::int64_t> ns = {1, 2, 4, 8, 16, 32, 64};
  const auto best = best_n(curve(ns, [](double n) { return 100 / n + n / 4; }), 0.5);
  ASSERT_TRUE(best);
  EXPECT_EQ(best->fastest.n, 16);
  EXPECT_DOUBLE_EQ(best->fastest.seconds, 10.25);
  EXPECT_EQ(best->largest_efficient.n, 16);
  EXPECT_NEAR(best->efficiency, 100.25 / 164, 1e-12);
}

// The efficiency must stay above the threshold: once it drops below, a later recovery does
// not count. The threshold itself passes. The input's order does not matter; on a tie the
// smaller N is the fastest (the same time for fewer processes).
TEST(BestN, EfficiencyMustStayAboveAndTiesGoToTheSmallerN) {
  // E: 1 (n=1), 10/(2*10) = 0.5, 10/(4*6) = 0.42, 10/(8*2) = 0.625, 10/(16*2) = 0.31.
  const std::vector<TimedCount> points = {{8, 2}, {1, 10}, {16, 2}, {4, 6}, {2, 10}};
  const auto best = best_n(points, 0.5);
  ASSERT_TRUE(best);
  EXPECT_EQ(best->base_n, 1);
  EXPECT_EQ(best->largest_efficient.n, 2);
  EXPECT_DOUBLE_EQ(best->efficiency, 0.5);
  EXPECT_EQ(best->fastest.n, 8);
}

TEST(BestN, OnePointNoPointsAndBadThresholds) {
  const auto one = best_n({{64, 3}}, 0.5);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->fastest.n, 64);
  EXPECT_EQ(one->largest_efficient.n, 64);
  EXPECT_DOUBLE_EQ(one->efficiency, 1.0);
  EXPECT_FALSE(best_n({}, 0.5));
  EXPECT_THROW(best_n({{1, 1}}, 0), std::invalid_argument);
  EXPECT_THROW(best_n({{1, 1}}, 1.5), std::invalid_argument);
  EXPECT_THROW(best_n({{1, 1}}, std::nan("")), std::invalid_argument);
  EXPECT_NO_THROW(best_n({{1, 1}}, 1.0));
}

// The prediction names the best N of the simulated PETs and of the replayed ones (over the
// points replayed, against the smallest of them), under strong scaling only.
TEST(PredictionReport, BestNPerPredictorUnderStrongScaling) {
  // Simulated 10, 4, 2 at 4, 16, 64: E(16) = 10 x 4 / (4 x 16) = 0.625, E(64) = 0.3125.
  ScalingPrediction p = three_points(10, 4, 2, false);
  p.points[1].replay_pet_seconds = 6;
  p.points[2].replay_pet_seconds = 7;  // replayed from 16: E(64) = 6 x 16 / (7 x 64) = 0.21
  const auto simulated = p.best_simulated();
  ASSERT_TRUE(simulated);
  EXPECT_EQ(simulated->fastest.n, 64);
  EXPECT_EQ(simulated->largest_efficient.n, 16);
  const auto replayed = p.best_replayed();
  ASSERT_TRUE(replayed);
  EXPECT_EQ(replayed->base_n, 16);
  EXPECT_EQ(replayed->fastest.n, 16);
  EXPECT_EQ(replayed->largest_efficient.n, 16);

  const nlohmann::json j = prediction_json(p);
  ASSERT_TRUE(j.contains("best_n")) << j.dump(2);
  EXPECT_DOUBLE_EQ(j["best_n"]["efficiency_threshold"].get<double>(), 0.5);
  EXPECT_EQ(j["best_n"]["simulated"]["fastest_n"].get<int>(), 64);
  EXPECT_EQ(j["best_n"]["simulated"]["largest_efficient_n"].get<int>(), 16);
  EXPECT_DOUBLE_EQ(j["best_n"]["simulated"]["efficiency"].get<double>(), 0.625);
  EXPECT_EQ(j["best_n"]["replayed"]["base_n"].get<int>(), 16);
  const std::string table = prediction_table(p);
  EXPECT_NE(table.find("best N (simulated): fastest at N = 64"), std::string::npos) << table;
  EXPECT_NE(table.find("up to N = 16"), std::string::npos) << table;
  EXPECT_NE(table.find("best N (replayed): fastest at N = 16"), std::string::npos) << table;

  p.min_efficiency = 0.3;  // E(64) = 0.3125 passes
  EXPECT_EQ(p.best_simulated()->largest_efficient.n, 64);

  const ScalingPrediction weak = three_points(10, 11, 12.5, true);
  EXPECT_FALSE(weak.best_simulated());
  EXPECT_FALSE(prediction_json(weak).contains("best_n"));
  EXPECT_NE(prediction_table(weak).find("not named under weak scaling"), std::string::npos);
}

}  // namespace
}  // namespace p3s::report

namespace p3s::report {
namespace {

// Per phase, both PhaseETs and their difference; a flagged phase with its cause in the table
// and JSON, and its point marked in the picture; without phase checks none of it appears.
TEST(PredictionReport, PhaseCrossCheckInTableJsonAndPicture) {
  ScalingPrediction p = three_points(10, 4, 2, false);
  EXPECT_FALSE(prediction_json(p).contains("tolerance"));
  EXPECT_EQ(scaling_plot_svg(p).find("differs by more than"), std::string::npos);
  p.tolerance = 0.2;
  p.points[2].replay_pet_seconds = 2.5;
  p.points[2].phase_checks = {
      {"phase_1", 40, 0.04, 0.06, true, {"point-to-point"}, "point-to-point: 512 B"},
      {"phase_2", 1, 0.5, 0.45, false, {}, ""}};
  EXPECT_DOUBLE_EQ(p.points[2].phase_checks[0].difference_pct(), 50.0);
  EXPECT_DOUBLE_EQ(p.points[2].phase_checks[1].difference_pct(), -10.0);
  const nlohmann::json j = prediction_json(p);
  EXPECT_DOUBLE_EQ(j["tolerance"].get<double>(), 0.2);
  const nlohmann::json& checks = j["points"][2]["phase_checks"];
  ASSERT_EQ(checks.size(), 2u);
  EXPECT_EQ(checks[0]["name"].get<std::string>(), "phase_1");
  EXPECT_DOUBLE_EQ(checks[0]["simulated_phase_et_seconds"].get<double>(), 0.04);
  EXPECT_DOUBLE_EQ(checks[0]["replayed_phase_et_seconds"].get<double>(), 0.06);
  EXPECT_DOUBLE_EQ(checks[0]["difference_pct"].get<double>(), 50.0);
  EXPECT_TRUE(checks[0]["flagged"].get<bool>());
  EXPECT_EQ(checks[0]["cause"].get<std::string>(), "point-to-point: 512 B");
  EXPECT_EQ(checks[0]["causes"], nlohmann::json::array({"point-to-point"}));
  EXPECT_FALSE(checks[1]["flagged"].get<bool>());
  EXPECT_FALSE(checks[1].contains("cause"));
  EXPECT_FALSE(j["points"][0].contains("phase_checks"));
  const std::string table = prediction_table(p);
  EXPECT_NE(table.find("+50.0%  FLAGGED: point-to-point: 512 B"), std::string::npos) << table;
  EXPECT_NE(table.find("-10.0%"), std::string::npos) << table;
  EXPECT_NE(table.find("more than 20 %"), std::string::npos) << table;
  const std::string svg = scaling_plot_svg(p);
  EXPECT_NE(svg.find("a phase differs by more than 20 %"), std::string::npos);
  EXPECT_NE(svg.find("replayed PET (Synthetic Signature)"), std::string::npos);

  // prediction.csv: the replayed PET's three columns (empty where not replayed), then five
  // columns per phase checked, empty where a point has no check; the cause's commas turned to
  // ';' (the CSV has no quoted fields).
  p.points[2].phase_checks[0].cause = "communication: 512 B, 4 between nodes";
  const auto rows = testing::csv_rows(prediction_csv(p));
  ASSERT_EQ(rows.size(), 4u);
  const std::vector<std::string> phase_columns(rows[0].begin() + 12, rows[0].end());
  EXPECT_EQ(phase_columns, (std::vector<std::string>{
                               "phase_1_simulated_seconds", "phase_1_replayed_seconds",
                               "phase_1_difference_pct", "phase_1_flagged", "phase_1_cause",
                               "phase_2_simulated_seconds", "phase_2_replayed_seconds",
                               "phase_2_difference_pct", "phase_2_flagged", "phase_2_cause"}));
  for (std::size_t i = 1; i <= 2; ++i) {
    ASSERT_EQ(rows[i].size(), 22u);
    for (std::size_t k = 9; k < 22; ++k) EXPECT_EQ(rows[i][k], "") << "row " << i << " " << k;
  }
  ASSERT_EQ(rows[3].size(), 22u);
  EXPECT_EQ(rows[3][9], "2.5");
  EXPECT_EQ(rows[3][10], "");  // no interval for the replay in this prediction
  EXPECT_DOUBLE_EQ(std::stod(rows[3][12]), 0.04);
  EXPECT_DOUBLE_EQ(std::stod(rows[3][13]), 0.06);
  EXPECT_DOUBLE_EQ(std::stod(rows[3][14]), 50.0);
  EXPECT_EQ(rows[3][15], "1");
  EXPECT_EQ(rows[3][16], "communication: 512 B; 4 between nodes");
  EXPECT_DOUBLE_EQ(std::stod(rows[3][19]), -10.0);
  EXPECT_EQ(rows[3][20], "0");
  EXPECT_EQ(rows[3][21], "");
}

TEST(PredictionReport, IntervalInTableCsvJsonAndBand) {
  ScalingPrediction p = three_points(10, 4, 2, false);
  EXPECT_FALSE(prediction_json(p).contains("interval"));
  EXPECT_EQ(scaling_plot_svg(p).find("fill-opacity"), std::string::npos);
  p.interval = "fits";
  p.points[0].pet_interval = Interval{9, 11.5};
  p.points[2].pet_interval = Interval{1.5, 2.25};
  EXPECT_TRUE(p.points[0].pet_interval->contains(9));
  EXPECT_FALSE(p.points[0].pet_interval->contains(11.6));

  const nlohmann::json j = prediction_json(p);
  EXPECT_EQ(j["interval"].get<std::string>(), "fits");
  EXPECT_DOUBLE_EQ(j["points"][0]["pet_low_seconds"].get<double>(), 9);
  EXPECT_DOUBLE_EQ(j["points"][0]["pet_high_seconds"].get<double>(), 11.5);
  EXPECT_FALSE(j["points"][1].contains("pet_low_seconds"));
  EXPECT_DOUBLE_EQ(j["points"][2]["pet_high_seconds"].get<double>(), 2.25);

  const auto rows = testing::csv_rows(prediction_csv(p));
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[1][7], "9");
  EXPECT_EQ(rows[1][8], "11.5");
  EXPECT_EQ(rows[2][7], "");
  EXPECT_EQ(rows[3][7], "1.5");

  const std::string table = prediction_table(p);
  EXPECT_NE(table.find("low (s)"), std::string::npos) << table;
  EXPECT_TRUE(std::regex_search(table, std::regex(R"(\n +4 +10 +9 +11\.5 )"))) << table;
  EXPECT_TRUE(std::regex_search(table, std::regex(R"(\n +16 +4 +- +- )"))) << table;
  EXPECT_NE(table.find("low, high: the PET with every weight, volume and compute fit"),
            std::string::npos)
      << table;

  // The replay's interval (its measured repetitions' spread): in the JSON, in the table's
  // replay section, in three CSV columns after the simulation's interval.
  p.points[2].replay_pet_seconds = 2.5;
  p.points[2].replay_interval = Interval{2.4, 2.75};
  const nlohmann::json replayed = prediction_json(p);
  EXPECT_DOUBLE_EQ(replayed["points"][2]["replay_pet_low_seconds"].get<double>(), 2.4);
  EXPECT_DOUBLE_EQ(replayed["points"][2]["replay_pet_high_seconds"].get<double>(), 2.75);
  EXPECT_FALSE(replayed["points"][0].contains("replay_pet_low_seconds"));
  const auto replayed_rows = testing::csv_rows(prediction_csv(p));
  ASSERT_EQ(replayed_rows[0].size(), 12u);
  EXPECT_EQ(replayed_rows[0][9], "replay_pet_seconds");
  EXPECT_EQ(replayed_rows[0][11], "replay_pet_high_seconds");
  EXPECT_EQ(replayed_rows[1][9], "");
  EXPECT_EQ(replayed_rows[3][9], "2.5");
  EXPECT_EQ(replayed_rows[3][10], "2.4");
  EXPECT_EQ(replayed_rows[3][11], "2.75");
  EXPECT_TRUE(std::regex_search(prediction_table(p),
                                std::regex(R"(\n +64 +2 +2\.5 +\+25\.0% +2\.4 +2\.75\n)")))
      << prediction_table(p);
  EXPECT_NE(scaling_plot_svg(p).find("replayed PET over its measured repetitions"),
            std::string::npos);

  // The band: one shaded path through both bounded points (low edge, then high edge back).
  const std::string svg = scaling_plot_svg(p);
  EXPECT_NE(svg.find("PET interval (the model's fits at the ends of their bands)"),
            std::string::npos);
  const std::regex band(R"(<path d="M[0-9.]+,[0-9.]+ L[0-9.]+,[0-9.]+ L[0-9.]+,[0-9.]+ )"
                        R"(L[0-9.]+,[0-9.]+ Z" fill="#1f5fbf" fill-opacity="0.2")");
  EXPECT_TRUE(std::regex_search(svg, band)) << svg;
}

}  // namespace
}  // namespace p3s::report

namespace p3s::report {
namespace {

// Two variants at N = 4, 16, 64; v2 twice as fast where both were predicted, not at 64.
WhatifPrediction two_variants(bool weak) {
  WhatifPrediction p;
  p.application = "stencil2d 64 40";
  p.mode = "per-phase";
  p.weak_scaling = weak;
  p.ns = {4, 16, 64};
  p.variants = {{"v1", "a.xml", "a.xml", "a.xml", "flat", 1, 1, 1},
                {"v2", "a.xml, bandwidth x2", "a.xml", "out/platform-v2.xml", "flat", 2, 1, 1}};
  p.points = {{0, 4, 8, 10, 0.1},
              {0, 16, 4, 10, 0.1},
              {0, 64, 3, 10, 0.1},
              {1, 4, 4, 10, 0.1},
              {1, 16, 2, 10, 0.1}};
  p.warnings = {"N = 64 on v2 (a.xml, bandwidth x2) not predicted: the simulation failed"};
  return p;
}

TEST(WhatifReport, SpeedupOverTheFirstVariantAndEfficiencyWithinEach) {
  const WhatifPrediction p = two_variants(false);
  EXPECT_DOUBLE_EQ(*p.speedup_vs_first(1, 4), 2.0);  // 8 / 4
  EXPECT_DOUBLE_EQ(*p.speedup_vs_first(0, 64), 1.0);
  EXPECT_FALSE(p.speedup_vs_first(1, 64));
  // E(16) = T(4) x 4 / (T(16) x 16): v1 8 x 4 / 64 = 0.5, v2 4 x 4 / 32 = 0.5; v1 E(64) = 1/6.
  EXPECT_DOUBLE_EQ(*p.efficiency(0, 16), 0.5);
  EXPECT_DOUBLE_EQ(*p.efficiency(1, 16), 0.5);
  EXPECT_DOUBLE_EQ(*p.efficiency(0, 64), 32.0 / 192);
  EXPECT_EQ(p.best(0)->fastest.n, 64);
  EXPECT_EQ(p.best(0)->largest_efficient.n, 16);
  EXPECT_EQ(p.best(1)->fastest.n, 16);

  const auto rows = testing::csv_rows(whatif_csv(p));
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"variant", "n", "pet_seconds", "speedup_vs_first",
                                               "efficiency"}));
  EXPECT_EQ(rows[4], (std::vector<std::string>{"v2", "4", "4", "2", "1"}));

  const nlohmann::json j = whatif_json(p);
  EXPECT_EQ(j["format"].get<std::string>(), "p3s-whatif 1");
  EXPECT_EQ(j["variants"][1]["platform"].get<std::string>(), "out/platform-v2.xml");
  EXPECT_DOUBLE_EQ(j["variants"][1]["bandwidth_factor"].get<double>(), 2.0);
  EXPECT_EQ(j["variants"][0]["best_n"]["largest_efficient_n"].get<int>(), 16);
  ASSERT_EQ(j["points"].size(), 5u);
  EXPECT_EQ(j["points"][3]["variant"].get<std::string>(), "v2");
  EXPECT_DOUBLE_EQ(j["points"][3]["speedup_vs_first"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(j["points"][2]["efficiency"].get<double>(), 32.0 / 192);

  const std::string table = whatif_table(p);
  EXPECT_NE(table.find("v2   a.xml, bandwidth x2"), std::string::npos) << table;
  EXPECT_NE(table.find("WARNING: N = 64 on v2"), std::string::npos) << table;
  std::istringstream in(table);
  std::string line;
  bool row64 = false;
  while (std::getline(in, line)) {
    std::istringstream cells(line);
    std::string n, pet1, x1, pet2, x2;
    cells >> n >> pet1 >> x1 >> pet2 >> x2;
    if (n != "64") continue;
    row64 = true;
    EXPECT_EQ(pet1, "3");
    EXPECT_EQ(pet2, "-");  // not predicted
    EXPECT_EQ(x2, "-");
  }
  EXPECT_TRUE(row64) << table;

  const std::string svg = whatif_plot_svg(p);
  EXPECT_TRUE(svg.starts_with("<svg ")) << svg.substr(0, 80);
  std::size_t paths = 0;
  for (std::size_t at = svg.find("<path "); at != std::string::npos;
       at = svg.find("<path ", at + 1))
    ++paths;
  EXPECT_EQ(paths, 2u);
}

TEST(WhatifReport, NoBestNUnderWeakScalingAndNoPictureWithoutPoints) {
  WhatifPrediction p = two_variants(true);
  EXPECT_FALSE(p.best(0));
  EXPECT_FALSE(p.efficiency(0, 16));
  EXPECT_FALSE(whatif_json(p)["variants"][0].contains("best_n"));
  EXPECT_NE(whatif_table(p).find("not named under weak scaling"), std::string::npos);
  p.points.clear();
  EXPECT_EQ(whatif_plot_svg(p), "");
}

}  // namespace
}  // namespace p3s::report
