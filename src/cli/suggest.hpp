#pragma once
// "Did you mean": the known names closest to a mistyped one (a flag, a codec, a corpus), by
// edit distance, for the tools' error messages.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gcbench::cli {

// Damerau-Levenshtein distance in its optimal-string-alignment form: insertions, deletions,
// substitutions and swaps of two neighbours, each costing 1; letters compared ignoring case.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The names of `known` closest to `word`, at most `most`, in `known`'s order: of those within a
// third of the word's length (at least 1; leading dashes not counted) or beginning with it (three
// letters or more, counted as one edit; a name differing in case alone counts as 0), the ones at
// the smallest distance. Empty when none is close, and when `word` is a known name itself.
std::vector<std::string> closest_names(std::string_view word, const std::vector<std::string>& known,
                                       std::size_t most = 3);

// " (did you mean --corpus?)" or " (did you mean lz4 or lz77?)"; "" when none is close.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& known);

}  // namespace gcbench::cli
