#pragma once
// The user's own files as inputs: `gcbench [flags] PATH...` or --corpus path:PATH. A file is
// one input; a folder is walked recursively, its entries in byte order of their names, each
// regular file one input named by its path relative to the folder. Symlinks are followed; a
// file reached twice (a link, a hard link, two paths given) is measured once. Every file's
// SHA-256 is taken once, when it is found; a file that changes or vanishes afterwards fails
// its own cells, not the run. A .npy file is its array's bytes, typed (npy.hpp).
#include <ostream>
#include <string>
#include <vector>

#include "bench/driver/inputs.hpp"

namespace gcbench::driver {

struct UserFiles {
  std::vector<InputFile> present;
  // Entries of a folder that are not measured, with the reason ("skipped: a FIFO"): special
  // files, symlink loops, broken links, unreadable files, a file reached a second time.
  std::vector<MissingInput> skipped;
};

// Throws std::invalid_argument, naming the path, when a path given does not exist or cannot
// be read, is neither a file nor a folder, is an empty folder or holds no regular file that
// the filter keeps, or when a .npy file is not a supported array; and when two different files
// would get the same corpus and name. `log` gets one line per path given: what it holds.
UserFiles gather_user_files(const std::vector<std::string>& paths, const PathFilter& filter,
                            std::ostream& log);

// Whether `relative_path` ("sub/a.txt") matches a glob: the whole path, or for a pattern
// without '/' its last component alone ("*.txt" matches "sub/a.txt").
bool glob_matches(const std::string& pattern, const std::string& relative_path);

}  // namespace gcbench::driver
