#include "calibrate/smpi_model.hpp"

#include <fmt/core.h>

#include <stdexcept>

namespace p3s::calibrate {

SizeFactor::SizeFactor(std::vector<Entry> entries) : entries_(std::move(entries)) {
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (!(entries_[i].value > 0)) throw std::invalid_argument("a size factor must be positive");
    if (i > 0 && entries_[i].above <= entries_[i - 1].above) {
      throw std::invalid_argument("size factor entries must have increasing sizes");
    }
  }
}

double SizeFactor::at(std::int64_t payload) const {
  double value = 1;
  for (const Entry& e : entries_) {
    if (payload <= e.above) break;
    value = e.value;
  }
  return value;
}

std::string SizeFactor::smpi() const {
  if (entries_.empty()) return "0:1";
  std::string out;
  for (const Entry& e : entries_) {
    out += fmt::format("{}{}:{:.6g}", out.empty() ? "" : ";", e.above, e.value);
  }
  return out;
}

namespace {

std::string overhead_syntax(const std::vector<Overhead::Piece>& pieces) {
  std::string out;
  for (const Overhead::Piece& p : pieces) {
    out += fmt::format("{}{}:{:.6g}:{:.6g}", out.empty() ? "" : ";", p.above, p.base, p.per_byte);
  }
  return out.empty() ? "0:0:0" : out;
}

}  // namespace

Overhead::Overhead() : table_(overhead_syntax({})) {}

Overhead::Overhead(std::vector<Piece> pieces)
    : pieces_(std::move(pieces)), table_(overhead_syntax(pieces_)) {}

std::string Overhead::smpi() const {
  return overhead_syntax(pieces_);
}

double SmpiPointToPoint::transfer(LinkKind link, std::int64_t bytes) const {
  const Route& r = route(link);
  const std::int64_t payload = bytes + kEnvelopeBytes;
  return r.latency * latency_factor.at(payload) +
         static_cast<double>(payload) / (r.bandwidth * bandwidth_factor.at(payload));
}

double SmpiPointToPoint::time(Test test, LinkKind link, std::int64_t bytes) const {
  const double t = transfer(link, bytes);
  const bool is_eager = eager(bytes);
  switch (test) {
    case Test::PingPong:
    case Test::AppMessage:  // at best a whole message, as a ping-pong's half
      return t + (is_eager ? send.seconds(bytes) + receive.seconds(bytes) : 0);
    case Test::PingPongSsend:
      return t + send.seconds(bytes);
    case Test::PingPongIsend:
      return t + isend.seconds(bytes) + (is_eager ? receive.seconds(bytes) : 0);
    case Test::SendOverhead:
      return is_eager ? send.seconds(bytes) : t;
    case Test::IsendOverhead:
      return isend.seconds(bytes);
  }
  return t;
}

}  // namespace p3s::calibrate
