#pragma once
// Child processes run side by side, each pinned to its cores, their output passed on line by
// line with the child's name in front: what gcbench --gpus needs of its workers.
#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace gcbench::driver {

struct ProcessSpec {
  std::string name;                                      // put in front of its lines: "[name] "
  std::vector<std::string> argv;                         // argv[0] is the program's path
  std::vector<std::pair<std::string, std::string>> env;  // set on top of this process's
  std::vector<int> cores;  // its affinity (set before exec, so all its threads inherit it);
                           // empty: this process's
};

struct ProcessExit {
  std::string name;
  int status = 0;           // the exit status; 128 + the signal when killed by one
  std::string description;  // "exit status 3", "killed by signal 9 (Killed)"
  double started_s = 0;     // seconds after run_processes began
  double ended_s = 0;       // when its output ended and it was reaped
};

// Called as each process ends: the processes it returns start at once (on the cores it freed).
using OnExit = std::function<std::vector<ProcessSpec>(const ProcessExit&)>;

// Starts every process at once, writes their stdout lines to `out` and stderr lines to `err`
// (each prefixed, whole lines only), and waits for all of them and for those `on_exit` adds.
// Returns every exit, in the order the processes started. Throws std::runtime_error when one
// cannot be started (the others are then still waited for).
std::vector<ProcessExit> run_processes(const std::vector<ProcessSpec>& specs, std::ostream& out,
                                       std::ostream& err, const OnExit& on_exit = {});

}  // namespace gcbench::driver
