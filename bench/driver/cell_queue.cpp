#include "bench/driver/cell_queue.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include "bench/driver/estimate.hpp"
#include "corpora/sha256.hpp"
#include "src/results/cell_name.hpp"

namespace gcbench::driver {
namespace fs = std::filesystem;

std::string queue_unit(const CellSpec& cell) {
  return results::escape_name_part(cell.id.corpus) + "/" + results::escape_name_part(cell.id.file) +
         "/" + cell.id.codec + "/" + cell.id.device;
}

void order_for_queue(std::vector<CellSpec>& cells, const std::vector<InputFile>& inputs) {
  std::vector<std::string> units;
  std::map<std::string, double> unit_s;
  for (const CellSpec& cell : cells) {
    units.push_back(queue_unit(cell));
    unit_s[units.back()] += estimate_cell_s(cell, inputs.at(cell.input).size, kPlanThreads);
  }
  std::vector<std::size_t> order(cells.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const double sa = unit_s.at(units[a]), sb = unit_s.at(units[b]);
    return sa != sb ? sa > sb : units[a] < units[b];
  });
  std::vector<CellSpec> ordered;
  ordered.reserve(cells.size());
  for (std::size_t i : order) ordered.push_back(std::move(cells[i]));
  cells = std::move(ordered);
}

CellQueue::CellQueue(fs::path dir, std::string worker)
    : dir_(std::move(dir)), worker_(std::move(worker)) {
  fs::create_directories(dir_);
}

bool CellQueue::mine(const CellSpec& cell) {
  const std::string unit = queue_unit(cell);
  if (auto it = decided_.find(unit); it != decided_.end()) return it->second;
  // A digest names the claim: file names in a unit may be long or odd.
  const std::string digest = corpora::sha256_hex(
      ByteSpan(reinterpret_cast<const std::uint8_t*>(unit.data()), unit.size()));
  const fs::path claim = dir_ / digest.substr(0, 32);
  const int fd = ::open(claim.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0 && errno != EEXIST) {
    throw std::runtime_error("cannot claim " + unit + " in " + dir_.string() + ": " +
                             std::strerror(errno));
  }
  if (fd >= 0) {
    const std::string text = unit + "\n" + worker_ + "\n";
    const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    if (!written) throw std::runtime_error("cannot write the claim " + claim.string());
  }
  return decided_[unit] = fd >= 0;
}

}  // namespace gcbench::driver
