#pragma once
// NumPy's .npy files (format versions 1-3) read as typed arrays: the header says the element
// width, and only the array's bytes are an input. Little-endian (or byte-wide) integers and
// floats of 1, 2, 4 or 8 bytes in C order; anything else is an error naming the file.
#include <cstdint>
#include <filesystem>
#include <string>

namespace gcbench::driver {

struct NpyLayout {
  std::uint64_t body_offset = 0;  // where the array's bytes start
  std::uint64_t body_size = 0;    // element count x element width
  std::uint32_t element_width = 0;
  std::string dtype;  // as the header has it, e.g. "<i2"
};

// Reads the header of `path` (`file_size` bytes long). Throws std::invalid_argument naming the
// file: not a .npy file, an unsupported dtype, Fortran order, or a body shorter or longer
// than the shape says.
NpyLayout read_npy_layout(const std::filesystem::path& path, std::uint64_t file_size);

// Parses a header's text ("{'descr': '<i2', 'fortran_order': False, 'shape': (3,), }") and
// checks it against `data_size`, the bytes after the header. Throws std::invalid_argument
// with the reason (without the file's name).
NpyLayout parse_npy_header(const std::string& header, std::uint64_t data_size);

}  // namespace gcbench::driver
