#include "signature/repeat_finder.hpp"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <unordered_map>

#include "signature/sequence_hash.hpp"

namespace p3s::signature {
namespace {

constexpr std::size_t kNowhere = std::numeric_limits<std::size_t>::max();

// A repeat found at some position: `repeats` copies of `period` symbols.
struct Run {
  std::size_t period = 0;
  std::size_t repeats = 0;
  std::size_t coverage() const { return period * repeats; }
};

class Finder {
 public:
  Finder(std::span<const std::uint32_t> input, const RepeatOptions& options)
      : seq_(input.begin(), input.end()), options_(options) {
    const std::uint32_t symbol_count =
        input.empty() ? 0 : *std::max_element(input.begin(), input.end()) + 1;
    rep_length_.assign(symbol_count, 1);
    repeats_.assign(symbol_count, 1);
    input_symbols_ = symbol_count;
  }

  LoopStructure run() {
    for (std::size_t limit = 1;; limit = std::min(limit * 2, options_.max_period)) {
      while (pass(limit)) {
      }
      if (limit >= options_.max_period) break;
    }
    LoopStructure out;
    out.input_symbols = input_symbols_;
    for (std::size_t s = input_symbols_; s < rep_length_.size(); ++s) {
      out.loops.push_back({std::move(bodies_[s - input_symbols_]), repeats_[s], rep_length_[s]});
    }
    out.top = std::move(seq_);
    return out;
  }

 private:
  // Position i of the sequence. Positions never pass its size, which a vector keeps within
  // ptrdiff_t, so the cast is exact.
  std::vector<std::uint32_t>::const_iterator at(std::size_t i) const {
    return seq_.begin() + static_cast<std::ptrdiff_t>(i);
  }

  bool same(std::size_t a, std::size_t b, std::size_t len) const {
    return std::equal(at(a), at(a + len), at(b));
  }

  std::size_t count_repeats(std::size_t i, std::size_t period) const {
    std::size_t k = 1;
    while (i + (k + 1) * period <= seq_.size() && same(i, i + k * period, period)) ++k;
    return k;
  }

  // The shortest repeat starting at i among the candidate periods up to `limit`; periods that
  // are multiples of `skip_multiples_of` (when not 0) are not tried.
  Run shortest_repeat(std::size_t i, std::size_t limit, std::size_t skip_multiples_of) const {
    std::size_t tries = 0;
    for (std::size_t j = next_[i]; j != kNowhere && tries < options_.candidates; j = next_[j]) {
      const std::size_t period = j - i;
      if (period > limit || i + 2 * period > seq_.size()) break;
      ++tries;
      if (skip_multiples_of != 0 && period % skip_multiples_of == 0) continue;
      if (same(i, j, period)) return {period, count_repeats(i, period)};
    }
    return {};
  }

  std::uint32_t loop_symbol(std::size_t i, const Run& run) {
    std::vector<std::uint32_t> key(at(i), at(i + run.period));
    key.push_back(static_cast<std::uint32_t>(run.repeats));
    auto [it, inserted] = loops_.try_emplace(std::move(key), 0);
    if (inserted) {
      std::size_t body = 0;
      for (std::size_t k = i; k < i + run.period; ++k) {
        body += rep_length_[seq_[k]] * repeats_[seq_[k]];
      }
      it->second = static_cast<std::uint32_t>(rep_length_.size());
      rep_length_.push_back(body);
      repeats_.push_back(run.repeats);
      bodies_.emplace_back(at(i), at(i + run.period));
    }
    return it->second;
  }

  void link_next_occurrences() {
    next_.assign(seq_.size(), kNowhere);
    std::vector<std::size_t> last(rep_length_.size(), kNowhere);
    for (std::size_t i = seq_.size(); i-- > 0;) {
      next_[i] = last[seq_[i]];
      last[seq_[i]] = i;
    }
  }

  // One greedy scan accepting bodies of at most `limit` symbols; true if it found any.
  bool pass(std::size_t limit) {
    link_next_occurrences();
    std::vector<std::uint32_t> out;
    out.reserve(seq_.size());
    bool changed = false;
    std::size_t i = 0;
    while (i < seq_.size()) {
      Run run = shortest_repeat(i, limit, 0);
      if (run.repeats < 2) {
        out.push_back(seq_[i++]);
        continue;
      }
      // A prologue that looks like the loop's first part (an exchange before a loop of
      // exchange + reduce) would otherwise take the loop's first iteration with it. A repeat
      // with a different period starting within the first two copies and covering more is the
      // real loop. Multiples of the period are only the same loop seen again, so skip them.
      const std::size_t window =
          std::min(i + std::min<std::size_t>(run.repeats, 2) * run.period, seq_.size());
      for (std::size_t j = i + 1; j < window; ++j) {
        Run rival = shortest_repeat(j, limit, run.period);
        if (rival.repeats >= 2 && rival.coverage() > run.coverage()) {
          out.insert(out.end(), at(i), at(j));
          i = j;
          run = rival;
          break;
        }
      }
      out.push_back(loop_symbol(i, run));
      i += run.coverage();
      changed = true;
    }
    seq_ = std::move(out);
    return changed;
  }

  std::vector<std::uint32_t> seq_;
  RepeatOptions options_;
  std::vector<std::size_t> next_;
  // Per symbol: flat elements in one repetition, and repetitions (1 and 1 for input symbols).
  std::vector<std::size_t> rep_length_;
  std::vector<std::size_t> repeats_;
  std::size_t input_symbols_ = 0;
  std::vector<std::vector<std::uint32_t>> bodies_;  // of loop symbols, from input_symbols_ on
  // Loop symbols by their body followed by their repeat count.
  std::unordered_map<std::vector<std::uint32_t>, std::uint32_t, SequenceHash> loops_;
};

}  // namespace

LoopStructure find_loop_structure(std::span<const std::uint32_t> symbols,
                                  const RepeatOptions& options) {
  return Finder(symbols, options).run();
}

std::vector<Repeat> find_repeats(std::span<const std::uint32_t> symbols,
                                 const RepeatOptions& options) {
  const LoopStructure structure = find_loop_structure(symbols, options);
  std::vector<Repeat> out;
  out.reserve(structure.top.size());
  std::size_t flat = 0;
  for (std::uint32_t s : structure.top) {
    if (structure.is_loop(s)) {
      const LoopStructure::Loop& loop = structure.loop(s);
      out.push_back({flat, loop.flat_length, loop.repeats});
    } else {
      out.push_back({flat, 1, 1});
    }
    flat += structure.span(s);
  }
  return out;
}

}  // namespace p3s::signature
