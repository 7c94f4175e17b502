#include "bench/driver/supervision.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "src/results/cell_name.hpp"

extern char** environ;

namespace gcbench::driver::supervision {
namespace fs = std::filesystem;
namespace {

constexpr const char* kJournalVariable = "GCBENCH_SUPERVISOR_JOURNAL";
constexpr const char* kFailedVariable = "GCBENCH_SUPERVISOR_FAILED";

enum State : std::uint32_t { kIdle = 0, kInCell = 1, kFinished = 2, kRestart = 3 };

// What the worker tells its supervisor, in a file both map shared. Lock-free atomics work
// across processes on shared memory; the name is written before the state that publishes it.
struct Journal {
  std::atomic<std::uint64_t> beats;
  std::atomic<std::uint32_t> state;
  std::atomic<std::uint32_t> name_size;
  char name[16384];
  char reason[1024];
};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);

Journal* map_journal(const std::string& path, bool create) {
  const int fd =
      ::open(path.c_str(), create ? O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC : O_RDWR, 0600);
  if (fd < 0) return nullptr;
  if (create && ::ftruncate(fd, sizeof(Journal)) != 0) {
    ::close(fd);
    return nullptr;
  }
  void* p = ::mmap(nullptr, sizeof(Journal), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  return p == MAP_FAILED ? nullptr : static_cast<Journal*>(p);
}

// The worker's journal, mapped on first use; null in a process no supervisor started.
Journal* journal() {
  static Journal* const mapped = [] {
    const char* path = std::getenv(kJournalVariable);
    return path != nullptr && *path != '\0' ? map_journal(path, false) : nullptr;
  }();
  return mapped;
}

bool restart_wanted = false;

}  // namespace

bool is_worker() {
  return journal() != nullptr;
}

void cell_begins(const std::string& name) {
  Journal* j = journal();
  if (j == nullptr) return;
  const std::size_t n = std::min(name.size(), sizeof j->name);
  std::memcpy(j->name, name.data(), n);
  j->name_size.store(static_cast<std::uint32_t>(n), std::memory_order_relaxed);
  j->beats.fetch_add(1, std::memory_order_relaxed);
  j->state.store(kInCell, std::memory_order_release);
}

void cell_ends() {
  if (Journal* j = journal()) j->state.store(kIdle, std::memory_order_release);
}

void heartbeat() {
  if (Journal* j = journal()) j->beats.fetch_add(1, std::memory_order_relaxed);
}

void finished() {
  if (Journal* j = journal()) j->state.store(kFinished, std::memory_order_release);
}

void request_restart(const std::string& why) {
  Journal* j = journal();
  if (j == nullptr) return;
  const std::size_t n = std::min(why.size(), sizeof j->reason - 1);
  std::memcpy(j->reason, why.data(), n);
  j->reason[n] = '\0';
  restart_wanted = true;
}

void restart_if_requested() {
  Journal* j = journal();
  if (j == nullptr || !restart_wanted) return;
  std::cout.flush();
  std::cerr.flush();
  j->state.store(kRestart, std::memory_order_release);
  std::_Exit(kRestartStatus);
}

std::map<std::string, std::string> failed_cells() {
  std::map<std::string, std::string> failed;
  const char* path = std::getenv(kFailedVariable);
  if (path == nullptr || *path == '\0') return failed;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const std::size_t tab = line.find('\t');
    if (tab != std::string::npos) failed[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return failed;
}

std::string describe_cell(const std::string& name) {
  const std::optional<results::CellId> id = results::parse_cell_name(name);
  if (!id) return name;
  return results::printable(
      fmt::format("{}/{} {} of {}/{}", id->codec, id->device, id->direction, id->corpus, id->file));
}

bool wants_supervision(const std::vector<std::string>& args) {
  if (is_worker()) return false;
  for (const std::string& a : args) {
    if (a == "--no-isolation" || a == "-h" || a == "--help" || a == "--help-all" ||
        a == "--version" || a == "--list" || a == "--export" || a.starts_with("--export=") ||
        a == "--gpus" || a.starts_with("--gpus=") || a.starts_with("--benchmark_list_tests")) {
      return false;
    }
  }
  return true;
}

double call_limit_of(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string value;
    if (args[i] == "--call-limit" && i + 1 < args.size()) {
      value = args[i + 1];
    } else if (args[i].starts_with("--call-limit=")) {
      value = args[i].substr(std::string("--call-limit=").size());
    } else {
      continue;
    }
    std::size_t used = 0;
    double seconds = 0;
    try {
      seconds = std::stod(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != value.size() || !(seconds > 0)) {
      throw std::invalid_argument("--call-limit: needs a positive number of seconds, not '" +
                                  value + "'");
    }
    return seconds;
  }
  return kDefaultCallLimitS;
}

namespace {

volatile sig_atomic_t g_interrupted = 0;

void on_interrupt(int signal) {
  g_interrupted = signal;
}

std::string signal_text(int signal) {
  const char* name = sigabbrev_np(signal);
  return fmt::format("SIG{} ({})", name != nullptr ? name : std::to_string(signal).c_str(),
                     strsignal(signal));
}

// Starts this program with `args`, the journal's and the failed list's paths in its environment.
pid_t start_worker(const std::vector<std::string>& args, const std::string& journal_path,
                   const std::string& failed_path) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    if (!entry.starts_with(std::string(kJournalVariable) + "=") &&
        !entry.starts_with(std::string(kFailedVariable) + "="))
      env.push_back(entry);
  }
  env.push_back(std::string(kJournalVariable) + "=" + journal_path);
  env.push_back(std::string(kFailedVariable) + "=" + failed_path);
  std::vector<std::string> argv{fs::read_symlink("/proc/self/exe").string()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> argv_p, env_p;
  for (std::string& a : argv) argv_p.push_back(a.data());
  argv_p.push_back(nullptr);
  for (std::string& e : env) env_p.push_back(e.data());
  env_p.push_back(nullptr);
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execve(argv_p[0], argv_p.data(), env_p.data());
    ::_exit(127);
  }
  if (pid < 0)
    throw std::runtime_error(std::string("cannot start a worker: ") + std::strerror(errno));
  return pid;
}

// A temporary folder of this process's, removed when it goes.
struct ScratchDir {
  fs::path path;
  explicit ScratchDir(const std::string& stem)
      : path(fs::temp_directory_path() / fmt::format("{}-{}", stem, ::getpid())) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
};

bool has_out_dir(const std::vector<std::string>& args) {
  return std::any_of(args.begin(), args.end(), [](const std::string& a) {
    return a == "--out-dir" || a.starts_with("--out-dir=");
  });
}

}  // namespace

int supervise(const std::vector<std::string>& given, const SupervisionOptions& options) {
  ScratchDir scratch("gcbench-supervisor");
  const std::string journal_path = (scratch.path / "journal").string();
  const std::string failed_path = (scratch.path / "failed.tsv").string();
  Journal* j = map_journal(journal_path, true);
  if (j == nullptr)
    throw std::runtime_error("cannot make the worker's journal in " + scratch.path.string());
  // A worker that dies must leave its finished cells behind: without --out-dir, a folder of
  // the supervisor's holds them for the worker after it (and the export, --benchmark_out).
  std::vector<std::string> args = given;
  if (!has_out_dir(args)) {
    args.push_back("--out-dir");
    args.push_back((scratch.path / "results").string());
  }
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  for (const int s : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(s, &action, nullptr);

  std::map<std::string, std::string> failed;
  for (;;) {
    {
      std::ofstream list(failed_path, std::ios::trunc);
      for (const auto& [cell, reason] : failed) list << cell << '\t' << reason << '\n';
    }
    j->state.store(kIdle);
    j->beats.store(0);
    const pid_t pid = start_worker(args, journal_path, failed_path);
    int status = 0;
    bool hung = false;
    std::uint64_t last_beats = 0;
    auto last_sign = std::chrono::steady_clock::now();
    for (;;) {
      const pid_t done = ::waitpid(pid, &status, WNOHANG);
      if (done == pid) break;
      if (done < 0 && errno != EINTR) throw std::runtime_error(std::strerror(errno));
      if (g_interrupted != 0) ::kill(pid, g_interrupted);  // a signal the worker did not see
      const std::uint64_t beats = j->beats.load(std::memory_order_relaxed);
      const auto now = std::chrono::steady_clock::now();
      if (beats != last_beats || j->state.load() != kInCell) {
        last_beats = beats;
        last_sign = now;
      } else if (!hung &&
                 std::chrono::duration<double>(now - last_sign).count() > options.call_limit_s) {
        hung = true;
        ::kill(pid, SIGKILL);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    const std::uint32_t state = j->state.load(std::memory_order_acquire);
    if (g_interrupted != 0) {
      std::cerr << "[gcbench] interrupted"
                << (has_out_dir(given) ? ": the cells finished are recorded, and the same "
                                         "command resumes"
                                       : "")
                << "\n";
      return 128 + g_interrupted;
    }
    if (state == kFinished) {
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    if (state == kRestart && WIFEXITED(status) && WEXITSTATUS(status) == kRestartStatus) {
      std::cerr << "[gcbench] a fresh worker goes on: " << results::printable(j->reason) << "\n";
      // The cell that broke the context failed and was recorded; the fresh worker, resuming,
      // would run it again (a failed cell is not done) and break its context too.
      if (const std::string cell(j->name, j->name_size.load()); !cell.empty())
        failed.emplace(cell, j->reason);
      continue;
    }
    const std::string how =
        hung ? fmt::format("no answer in {:g} s (--call-limit)", options.call_limit_s)
        : WIFSIGNALED(status) ? "crashed with " + signal_text(WTERMSIG(status))
                              : fmt::format("exited with status {}", WEXITSTATUS(status));
    if (state != kInCell) {
      std::cerr << "[gcbench] the worker " << how << " outside any cell; the run stops\n";
      return 2;
    }
    const std::string cell(j->name, j->name_size.load());
    if (failed.contains(cell)) {  // it was to be recorded as failed, not run: no progress
      std::cerr << "[gcbench] the worker " << how << " again in " << describe_cell(cell)
                << "; the run stops\n";
      return 2;
    }
    failed[cell] = fmt::format("{} in {}", how, describe_cell(cell));
    std::cerr << "[gcbench] " << failed[cell]
              << "; the cell is recorded as failed and a fresh worker goes on\n";
  }
}

}  // namespace gcbench::driver::supervision
