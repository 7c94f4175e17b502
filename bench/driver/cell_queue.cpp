#include "bench/driver/cell_queue.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
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
  std::map<std::string, double> unit_s;
  for (const CellSpec& cell : cells)
    unit_s[queue_unit(cell)] += estimate_cell_s(cell, inputs.at(cell.input).size, kPlanThreads);
  std::stable_sort(cells.begin(), cells.end(), [&](const CellSpec& a, const CellSpec& b) {
    const std::string ua = queue_unit(a), ub = queue_unit(b);
    if (ua == ub) return false;
    const double sa = unit_s.at(ua), sb = unit_s.at(ub);
    return sa != sb ? sa > sb : ua < ub;
  });
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
