#pragma once
// The kernels preset (issue 14): the inputs that decide the GPU kernels, each kernel beside its
// peers, kernel-only.
#include <map>
#include <string>
#include <vector>

namespace gcbench::studies {

// Its synthetic inputs: runs of geometric and uniform lengths, and small integers for FL, each
// `size` (e.g. "1GiB") at element widths 1, 2 and 4; the --corpus specs and the file names they
// give.
struct KernelInputs {
  std::vector<std::string> specs;
  std::map<int, std::vector<std::string>> runs_files;        // width -> runs-* file names
  std::map<int, std::vector<std::string>> small_ints_files;  // width -> small_ints file names
};
KernelInputs kernel_inputs(const std::string& size);

}  // namespace gcbench::studies
