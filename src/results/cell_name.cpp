#include "src/results/cell_name.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include <fmt/format.h>

namespace gcbench::results {
namespace {

// Whether `text[i..]` starts with a valid UTF-8 sequence of more than one byte; its length.
std::size_t utf8_sequence(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  const std::size_t length = lead >= 0xF0 && lead <= 0xF4  ? 4
                             : lead >= 0xE0                ? 3
                             : lead >= 0xC2 && lead < 0xE0 ? 2
                                                           : 0;
  if (length == 0 || i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  // Overlong three- and four-byte forms, surrogates and code points above U+10FFFF.
  if (lead == 0xE0 && byte(i + 1) < 0xA0) return 0;
  if (lead == 0xED && byte(i + 1) >= 0xA0) return 0;
  if (lead == 0xF0 && byte(i + 1) < 0x90) return 0;
  if (lead == 0xF4 && byte(i + 1) >= 0x90) return 0;
  return length;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    std::size_t end = s.find(sep, start);
    parts.push_back(s.substr(start, end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return parts;
}

// `text` with every byte that is neither part of a valid multi-byte UTF-8 sequence nor `plain`
// written as `prefix` and two digits of `hex`.
template <typename Plain>
std::string escape_bytes(std::string_view text, std::string_view prefix, const char* hex,
                         Plain plain) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      if (const std::size_t length = utf8_sequence(text, i); length > 0) {
        out.append(text.substr(i, length));
        i += length;
        continue;
      }
    }
    if (plain(c)) {
      out += static_cast<char>(c);
    } else {
      out += prefix;
      out += hex[c >> 4];
      out += hex[c & 0xF];
    }
    ++i;
  }
  return out;
}

// What Google Benchmark appends to a registered name. The driver never sets threads,
// iterations or repetitions per benchmark, so a trailing `threads:` is a codec axis.
bool is_benchmark_suffix(std::string_view seg) {
  static constexpr std::array<std::string_view, 3> kTimeTypes = {"real_time", "manual_time",
                                                                 "process_time"};
  static constexpr std::array<std::string_view, 4> kKeys = {
      "min_time:", "min_warmup_time:", "iterations:", "repeats:"};
  if (std::find(kTimeTypes.begin(), kTimeTypes.end(), seg) != kTimeTypes.end()) return true;
  return std::any_of(kKeys.begin(), kKeys.end(),
                     [&](std::string_view key) { return seg.starts_with(key); });
}

// One "<axis>:<value>" segment; false when it is not one.
bool add_param(std::string_view seg, std::vector<std::pair<std::string, std::string>>& params) {
  std::size_t colon = seg.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  params.emplace_back(seg.substr(0, colon), unescape_name_part(seg.substr(colon + 1)));
  return true;
}

}  // namespace

std::string escape_name_part(std::string_view text) {
  return escape_bytes(text, "%", "0123456789ABCDEF", [](unsigned char c) {
    return c >= 0x20 && c < 0x7F && c != '%' && c != '/' && c != ':' && c != ',';
  });
}

std::string unescape_name_part(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex_digit(text[i + 1]) >= 0 &&
        hex_digit(text[i + 2]) >= 0) {
      out += static_cast<char>(hex_digit(text[i + 1]) * 16 + hex_digit(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::string printable(std::string_view name) {
  return escape_bytes(name, "\\x", "0123456789abcdef",
                      [](unsigned char c) { return c >= 0x20 && c < 0x7F; });
}

std::string markdown_text(std::string_view name) {
  std::string out;
  for (const char c : printable(name)) {
    if (std::string_view("\\|<>[]`").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string folder_name(std::string_view corpus) {
  if (corpus.empty())
    return "%00";  // no cell name holds an empty corpus; still a folder of its own
  std::string name = escape_name_part(corpus);
  if (name.find_first_not_of('.') == std::string::npos) {
    std::string dots;
    for (std::size_t i = 0; i < name.size(); ++i) dots += "%2E";
    return dots;
  }
  return name;
}

bool is_plain_file_name(std::string_view name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find_first_of(std::string_view("/\0", 2)) == std::string_view::npos;
}

std::string result_file_name(std::string_view file) {
  // A file system's name limit is 255 bytes: a longer name keeps its start and a digest.
  constexpr std::size_t kKeep = 200;
  std::string name = escape_name_part(file);
  if (name.size() + 5 > 255) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a: stable across builds and machines
    for (const char c : name) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    std::size_t keep = kKeep;
    while (keep > 0 && (static_cast<unsigned char>(name[keep]) & 0xC0) == 0x80) --keep;
    name = name.substr(0, keep) + "~" + fmt::format("{:016x}", hash);
  }
  return name + ".json";
}

const std::string* CellId::param(std::string_view axis) const {
  for (const auto& [name, value] : params) {
    if (name == axis) return &value;
  }
  return nullptr;
}

std::string format_params(const std::vector<std::pair<std::string, std::string>>& params) {
  std::string text;
  for (const auto& [axis, value] : params) {
    if (!text.empty()) text += '/';
    text += axis;
    text += ':';
    text += escape_name_part(value);
  }
  return text;
}

std::string format_cell_name(const CellId& id) {
  std::string name = escape_name_part(id.codec) + "/" + id.device + "/" + id.direction + "/" +
                     escape_name_part(id.corpus) + "/" + escape_name_part(id.file);
  if (!id.params.empty()) {
    name += '/';
    name += format_params(id.params);
  }
  return name;
}

std::optional<CellId> parse_cell_name(std::string_view run_name) {
  std::vector<std::string_view> segs = split(run_name, '/');
  while (!segs.empty() && is_benchmark_suffix(segs.back())) segs.pop_back();
  if (segs.size() < 5) return std::nullopt;
  CellId id{unescape_name_part(segs[0]), std::string(segs[1]),        std::string(segs[2]),
            unescape_name_part(segs[3]), unescape_name_part(segs[4]), {}};
  if (id.device != "cpu" && id.device != "gpu") return std::nullopt;
  if (id.direction != "compress" && id.direction != "decompress") return std::nullopt;
  for (std::size_t i = 5; i < segs.size(); ++i) {
    if (!add_param(segs[i], id.params)) return std::nullopt;
  }
  return id;
}

std::optional<std::vector<std::pair<std::string, std::string>>> parse_params(
    std::string_view text) {
  std::vector<std::pair<std::string, std::string>> params;
  if (text.empty()) return params;
  for (std::string_view seg : split(text, '/')) {
    if (!add_param(seg, params)) return std::nullopt;
  }
  return params;
}

}  // namespace gcbench::results
