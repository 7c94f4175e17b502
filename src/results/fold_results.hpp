#pragma once
// One result folder folded into another: what gcbench --gpus does with the folders of the
// workers that ran CPU cells on a GPU worker's cores once its GPU cells were done, so that every
// CPU cell of the run lives in the CPU worker's folder, where a later run resumes from.
#include <cstddef>
#include <filesystem>

namespace gcbench::results {

// Moves every cell entry of the result files under `from` into the file of the same path under
// `into` (created when absent, with `from`'s context; an existing file keeps its own), where it
// replaces every entry of the same cell; then removes `from`. Files are written atomically.
// Returns the cells moved. Throws std::runtime_error when a file cannot be read or written
// (`from` is then left, for the next fold).
std::size_t fold_results(const std::filesystem::path& from, const std::filesystem::path& into);

}  // namespace gcbench::results
