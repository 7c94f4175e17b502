#pragma once
// Codecs as untrusted guests: gcbench runs its cells in a worker process that a supervisor
// watches, so that a codec that crashes, exits, aborts, hangs or leaves the CUDA context broken
// costs its own cell, never the run. The supervisor (supervise) starts this program again as
// the worker, with the same arguments; the worker names each cell in a journal it shares with
// the supervisor before the cell runs (cell_begins) and beats while it samples (heartbeat). When
// the worker ends without finishing, or beats no more for the call limit, the supervisor records
// the cell it was in as failed, with the reason in words, and starts a fresh worker, which
// resumes from the results folder and fails that cell first (failed_cells).
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gcbench::driver::supervision {

// The default of --call-limit: a call (or a cell's set-up between two samples) that gives no
// sign of life for this long is taken as hung.
inline constexpr double kDefaultCallLimitS = 600;

// The exit status of a worker that ends so that a fresh one takes over (its CUDA context is
// broken): the cell that broke it is already recorded as failed.
inline constexpr int kRestartStatus = 75;

// --- the worker's side; each does nothing in a process that no supervisor started ---

// Whether this process is a worker of a supervisor.
bool is_worker();
// The cell `name` is about to run; a heartbeat.
void cell_begins(const std::string& name);
// The cell that began last has been recorded.
void cell_ends();
// A sign of life inside a cell (a timed call done).
void heartbeat();
// The run is over: the supervisor passes on the worker's exit status.
void finished();
// Ends the worker once the current cell is recorded (restart_if_requested), so that a fresh
// one goes on: `why` is printed by the supervisor.
void request_restart(const std::string& why);
// Exits with kRestartStatus when a restart was requested.
void restart_if_requested();
// Cells that crashed, exited or hung in earlier workers of this run: cell name -> the reason.
// The worker records them as failed without running them.
std::map<std::string, std::string> failed_cells();

// --- the supervisor's side ---

struct SupervisionOptions {
  double call_limit_s = kDefaultCallLimitS;
};

// Whether this invocation runs cells and should be supervised: not a worker, not asked for
// --no-isolation, and not only answering (help, version, --list, --export, --gpus whose own
// workers are supervised each).
bool wants_supervision(const std::vector<std::string>& args);

// The --call-limit value among `args` (seconds), or the default; std::invalid_argument for a
// value that is not a positive number.
double call_limit_of(const std::vector<std::string>& args);

// Runs this program as a worker with `args` (argv without the program) until it finishes,
// restarting it after each cell that ends it; returns the exit status to exit with.
int supervise(const std::vector<std::string>& args, const SupervisionOptions& options);

// "faulty/cpu decompress of canterbury/xargs.1" for a cell name (the name itself if it is none).
std::string describe_cell(const std::string& name);

}  // namespace gcbench::driver::supervision
