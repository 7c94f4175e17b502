#pragma once
// Running the report's Python scripts (plots, page): a program found on PATH, and the first
// candidate Python that imports a module. Python is found at run time; a report without it
// goes on and says so.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gcbench::reports {

// A script the report runs, and the Pythons to run it with: the first that imports the module
// the script needs runs it.
struct PythonScript {
  std::filesystem::path script;
  std::vector<std::string> pythons;
};

// Runs a program found on PATH and returns its exit status, or -1 when it could not be run.
// `quiet` sends its output to /dev/null; otherwise it shares ours.
int run_program(const std::vector<std::string>& argv, bool quiet);

// The first candidate that runs `import <module>` successfully.
std::optional<std::string> find_python_with(const std::vector<std::string>& candidates,
                                            const std::string& module);

}  // namespace gcbench::reports
