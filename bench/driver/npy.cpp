#include "bench/driver/npy.hpp"

#include <array>
#include <cctype>
#include <fstream>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace gcbench::driver {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

// The text after "'key':" in the header dict, blanks skipped; npos when the key is absent.
std::size_t value_of(const std::string& header, const std::string& key) {
  const std::size_t at = header.find("'" + key + "'");
  if (at == std::string::npos) return at;
  std::size_t i = header.find(':', at);
  if (i == std::string::npos) return i;
  ++i;
  while (i < header.size() && header[i] == ' ') ++i;
  return i;
}

std::string quoted_value(const std::string& header, const std::string& key) {
  const std::size_t i = value_of(header, key);
  if (i == std::string::npos) throw std::invalid_argument("the header has no '" + key + "'");
  if (header[i] != '\'' && header[i] != '"') {
    throw std::invalid_argument("'" + key +
                                "' is not a plain type string (structured dtypes are "
                                "not supported)");
  }
  const std::size_t end = header.find(header[i], i + 1);
  if (end == std::string::npos) throw std::invalid_argument("unterminated '" + key + "'");
  return header.substr(i + 1, end - i - 1);
}

std::vector<std::uint64_t> shape_of(const std::string& header) {
  std::size_t i = value_of(header, "shape");
  if (i == std::string::npos || header[i] != '(')
    throw std::invalid_argument("the header has no 'shape' tuple");
  std::vector<std::uint64_t> dims;
  for (++i; i < header.size() && header[i] != ')';) {
    if (header[i] == ' ' || header[i] == ',') {
      ++i;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(header[i])))
      throw std::invalid_argument("'shape' holds something other than sizes");
    std::uint64_t dim = 0;
    for (; i < header.size() && std::isdigit(static_cast<unsigned char>(header[i])); ++i) {
      const auto digit = static_cast<std::uint64_t>(header[i] - '0');
      if (dim > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
        throw std::invalid_argument("a 'shape' size overflows");
      dim = dim * 10 + digit;
    }
    dims.push_back(dim);
  }
  if (i >= header.size()) throw std::invalid_argument("unterminated 'shape'");
  return dims;
}

std::uint32_t width_of(const std::string& dtype) {
  // "<i2", "|u1", "<f4", ...: byte order, kind, bytes.
  const std::string_view kinds = "iuf", widths = "1248";
  if (dtype.size() != 3 || kinds.find(dtype[1]) == kinds.npos ||
      widths.find(dtype[2]) == widths.npos) {
    throw std::invalid_argument("unsupported dtype '" + dtype +
                                "' (integers or floats of 1, 2, 4 or 8 bytes)");
  }
  const auto width = static_cast<std::uint32_t>(dtype[2] - '0');
  const bool little_endian = dtype[0] == '<' || (dtype[0] == '|' && width == 1);
  if (!little_endian)
    throw std::invalid_argument("unsupported dtype '" + dtype +
                                "': only little-endian arrays are read (the codecs read them so)");
  return width;
}

}  // namespace

NpyLayout parse_npy_header(const std::string& header, std::uint64_t data_size) {
  NpyLayout layout;
  layout.dtype = quoted_value(header, "descr");
  layout.element_width = width_of(layout.dtype);
  const std::size_t fortran = value_of(header, "fortran_order");
  if (fortran == std::string::npos) throw std::invalid_argument("the header has no fortran_order");
  if (header.compare(fortran, 4, "True") == 0)
    throw std::invalid_argument("Fortran order is not supported (save the array in C order)");
  if (header.compare(fortran, 5, "False") != 0)
    throw std::invalid_argument("fortran_order is neither True nor False");
  std::uint64_t count = 1;
  for (const std::uint64_t dim : shape_of(header)) {
    if (dim != 0 && count > std::numeric_limits<std::uint64_t>::max() / dim / layout.element_width)
      throw std::invalid_argument("the shape's size overflows");
    count *= dim;
  }
  layout.body_size = count * layout.element_width;
  if (data_size != layout.body_size) {
    throw std::invalid_argument("the shape says " + std::to_string(layout.body_size) +
                                " bytes of data, the file has " + std::to_string(data_size) +
                                (data_size < layout.body_size ? " (truncated)" : ""));
  }
  return layout;
}

NpyLayout read_npy_layout(const std::filesystem::path& path, std::uint64_t file_size) {
  const auto fail = [&](const std::string& why) {
    throw std::invalid_argument(path.string() + ": not a readable .npy array: " + why);
  };
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot open it");
  std::array<char, 12> start{};
  in.read(start.data(), start.size());
  const auto got = static_cast<std::uint64_t>(in.gcount());
  if (got < 10 || std::string_view(start.data(), kMagic.size()) != kMagic)
    fail("no NumPy magic at its start");
  const auto byte = [&](std::size_t i) {
    return static_cast<std::uint64_t>(static_cast<unsigned char>(start[i]));
  };
  const std::uint64_t major = byte(6);
  if (major < 1 || major > 3) fail("format version " + std::to_string(major) + " is unknown");
  const std::uint64_t length_bytes = major == 1 ? 2 : 4;
  if (got < 8 + length_bytes) fail("its header is cut short");
  std::uint64_t header_length = byte(8) | byte(9) << 8;
  if (length_bytes == 4) header_length |= byte(10) << 16 | byte(11) << 24;
  // NumPy itself reads headers of at most 10000 bytes by default (max_header_size): a claimed
  // length past this bound is refused before anything is allocated for it.
  constexpr std::uint64_t kMaxHeader = 1 << 16;
  if (header_length > kMaxHeader) {
    fail("its header claims " + std::to_string(header_length) + " bytes; a .npy header holds " +
         "at most " + std::to_string(kMaxHeader));
  }
  const std::uint64_t body_offset = 8 + length_bytes + header_length;
  if (body_offset > file_size) fail("its header runs past the end of the file");
  std::string header(header_length, '\0');
  in.seekg(static_cast<std::streamoff>(8 + length_bytes));
  in.read(header.data(), static_cast<std::streamsize>(header_length));
  if (static_cast<std::uint64_t>(in.gcount()) != header_length) fail("its header is cut short");
  try {
    NpyLayout layout = parse_npy_header(header, file_size - body_offset);
    layout.body_offset = body_offset;
    return layout;
  } catch (const std::invalid_argument& e) {
    fail(e.what());
  }
  return {};  // not reached
}

}  // namespace gcbench::driver
