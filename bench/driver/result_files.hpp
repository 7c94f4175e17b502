#pragma once
// Result files on disk, as the recorder, the merged output, the shard plan and the report
// tools read and write them: one listing and one atomic write for all of them.
#include <filesystem>
#include <string>
#include <vector>

namespace gcbench::driver {

// The regular files named *.json under `dir`, recursively but for hidden folders (a --gpus
// run's workers' folders, OUT/.workers: OUT holds their merged results), sorted.
std::vector<std::filesystem::path> json_files_under(const std::filesystem::path& dir);

// Whether `entry` is a folder whose name starts with '.'.
bool is_hidden_folder(const std::filesystem::directory_entry& entry);

// Writes `text` to `path` through a temp file of this writer's own (pid and sequence number),
// synced and renamed over `path`: a kill leaves either the previous file or the new one whole.
// Creates the parent folders. Throws std::runtime_error naming the file and the system error.
void write_file_atomically(const std::filesystem::path& path, const std::string& text);

// Throws std::runtime_error("cannot <what> <path>: <strerror(errno)>").
[[noreturn]] void fail_errno(const std::string& what, const std::filesystem::path& path);

}  // namespace gcbench::driver
