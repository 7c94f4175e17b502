#include "src/cli/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace gcbench::cli {
namespace {

bool same_letter(char a, char b) {
  return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
}

bool begins_with(std::string_view name, std::string_view word) {
  return word.size() <= name.size() &&
         std::equal(word.begin(), word.end(), name.begin(), same_letter);
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic-programming table: two back for a swap, one back, this one.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  std::iota(previous.begin(), previous.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitute = previous[j - 1] + (same_letter(a[i - 1], b[j - 1]) ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitute});
      if (i > 1 && j > 1 && same_letter(a[i - 1], b[j - 2]) && same_letter(a[i - 2], b[j - 1]))
        current[j] = std::min(current[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::vector<std::string> closest_names(std::string_view word, const std::vector<std::string>& known,
                                       std::size_t most) {
  const std::size_t letters = word.size() - std::min(word.find_first_not_of('-'), word.size());
  const std::size_t allowed = std::max<std::size_t>(1, letters / 3);
  // A known name given: it is meant, and what went wrong is not its spelling.
  if (std::find(known.begin(), known.end(), word) != known.end()) return {};
  std::vector<std::pair<std::size_t, const std::string*>> near;  // (distance, name)
  for (const std::string& name : known) {
    const std::size_t distance = edit_distance(word, name);
    // A prefix of three letters or more ("--corp") is as close as one edit.
    if (letters >= 3 && begins_with(name, word)) {
      near.emplace_back(1, &name);
    } else if (distance <= allowed) {
      near.emplace_back(distance, &name);
    }
  }
  std::stable_sort(near.begin(), near.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> names;
  for (const auto& [distance, name] : near) {
    if (names.size() == most || distance > near.front().first) break;  // the closest alone
    if (std::find(names.begin(), names.end(), *name) == names.end()) names.push_back(*name);
  }
  return names;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& known) {
  const std::vector<std::string> names = closest_names(word, known);
  if (names.empty()) return "";
  std::string text = " (did you mean ";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " or " : ", ";
    text += names[i];
  }
  return text + "?)";
}

}  // namespace gcbench::cli
