#pragma once
// Result files on disk, as the recorder, the folder export, the shard plan and the report
// tools read and write them: one listing and one atomic write for all of them.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gcbench::results {

// The regular files under `dir` that `wanted` accepts, sorted: recursively but for hidden
// folders (a --gpus run's workers' folders, OUT/.workers: OUT holds their merged results).
std::vector<std::filesystem::path> files_under(
    const std::filesystem::path& dir,
    const std::function<bool(const std::filesystem::path&)>& wanted);

// The regular files named *.json under `dir`, as files_under lists them.
std::vector<std::filesystem::path> json_files_under(const std::filesystem::path& dir);

// The JSON in `path`; a discarded value (is_discarded()) when it is not JSON. A file that cannot
// be read (no permission, gone) is no damage: throws std::runtime_error ("cannot read <path>:
// <strerror(errno)>").
nlohmann::json read_json_file(const std::filesystem::path& path);

// Whether `entry` is a folder whose name starts with '.'.
bool is_hidden_folder(const std::filesystem::directory_entry& entry);

// Writes `text` to `path` through a temp file of this writer's own (pid and sequence number),
// synced and renamed over `path`: a kill leaves either the previous file or the new one whole.
// Creates the parent folders. Throws std::runtime_error naming the file and the system error.
void write_file_atomically(const std::filesystem::path& path, const std::string& text);

// Renames `path` to `<path><suffix>`, or where that exists to `<path><suffix>-2`, `-3`, ...:
// never over an earlier file (RENAME_NOREPLACE). Returns the new path; throws
// std::runtime_error naming the file and the system error.
std::filesystem::path rename_aside(const std::filesystem::path& path, const std::string& suffix);

// The temp files of write_file_atomically whose writer is gone (killed before its rename): those
// under `dir` (as files_under lists them) named for a process that no longer runs. Removes
// them; returns their paths. Call it holding the folder's lock, so no writer of the folder runs.
std::vector<std::filesystem::path> remove_dead_writers_temp_files(const std::filesystem::path& dir);

// `doc` as every result file holds it (two-space indent, a final newline), atomically.
void write_json_file(const std::filesystem::path& path, const nlohmann::json& doc);

// Throws std::runtime_error("cannot <what> <path>: <strerror(errno)>").
[[noreturn]] void fail_errno(const std::string& what, const std::filesystem::path& path);

}  // namespace gcbench::results
