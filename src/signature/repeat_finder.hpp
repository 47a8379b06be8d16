#pragma once
// Finds the loops in a sequence of symbols: stretches where one body repeats back to back,
// nested loops included. This is the pattern search of the phase analysis; it knows nothing of
// MPI, only of equal and unequal symbols.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace p3s::signature {

struct RepeatOptions {
  // Longest body searched for, in symbols of the level being searched (an inner loop found
  // first counts as one symbol, so flat bodies may be much longer).
  std::size_t max_period = 1024;
  // Candidate periods tried at each position: the distances to the next occurrences of the
  // symbol there. Bounds the work per position on irregular input.
  std::size_t candidates = 8;
};

// `repeats` copies of a body of `length` elements, starting at element `first` of the input.
// Elements that start no repeat come out alone, as a body of length 1 with repeats = 1.
struct Repeat {
  std::size_t first = 0;
  std::size_t length = 1;
  std::size_t repeats = 1;
  bool operator==(const Repeat&) const = default;
};

// The loops found in a sequence, nested: symbols below `input_symbols` are the input's own;
// symbol input_symbols + k is loops[k], `repeats` copies of its body, itself a sequence of
// symbols (input symbols or inner loops). `top` is the whole input rewritten with them.
struct LoopStructure {
  struct Loop {
    std::vector<std::uint32_t> body;
    std::size_t repeats = 0;
    std::size_t flat_length = 0;  // input symbols in one copy of the body
  };
  std::size_t input_symbols = 0;
  std::vector<Loop> loops;
  std::vector<std::uint32_t> top;

  bool is_loop(std::uint32_t symbol) const { return symbol >= input_symbols; }
  const Loop& loop(std::uint32_t symbol) const { return loops[symbol - input_symbols]; }
  // Input symbols one occurrence of `symbol` covers, all its repeats included.
  std::size_t span(std::uint32_t symbol) const {
    return is_loop(symbol) ? loop(symbol).flat_length * loop(symbol).repeats : 1;
  }
};

LoopStructure find_loop_structure(std::span<const std::uint32_t> symbols,
                                  const RepeatOptions& options = {});

// Splits `symbols` into consecutive Repeats that cover it in order: the top level of
// find_loop_structure. Symbols are small ids
// (tables are sized by the largest), as tokenize() numbers tokens.
//
// Loops are found innermost first: a pass accepts only bodies up to a period limit, the
// limit doubles from 1 up to max_period, and each repeat found becomes one symbol for the
// passes after it. So a body that itself holds a short repeat (A A B, A A B, ...) is found as
// that body instead of as "A twice" followed by a misaligned loop. Within a pass the scan is
// greedy from the left, so a loop starts where the events before it stop repeating; a longer
// repeat that starts inside a shorter one just found wins over it.
std::vector<Repeat> find_repeats(std::span<const std::uint32_t> symbols,
                                 const RepeatOptions& options = {});

}  // namespace p3s::signature
