#include "bench/driver/processes.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <stdexcept>

extern char** environ;

namespace gcbench::driver {
namespace {

// This process's environment with `overrides` set.
std::vector<std::string> environment_with(
    const std::vector<std::pair<std::string, std::string>>& overrides) {
  std::map<std::string, std::string> vars;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const std::size_t eq = entry.find('=');
    if (eq != std::string::npos) vars[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const auto& [key, value] : overrides) vars[key] = value;
  std::vector<std::string> env;
  for (const auto& [key, value] : vars) env.push_back(key + "=" + value);
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> p;
  for (std::string& s : strings) p.push_back(s.data());
  p.push_back(nullptr);
  return p;
}

// One child's output stream: the part of a line not yet passed on.
struct Stream {
  int fd = -1;
  std::string prefix;
  std::ostream* to = nullptr;
  std::string pending;

  void pass_lines(bool at_end) {
    std::size_t start = 0;
    for (std::size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1)
      *to << prefix << std::string_view(pending).substr(start, nl + 1 - start);
    pending.erase(0, start);
    if (at_end && !pending.empty()) *to << prefix << pending << "\n";
    to->flush();
  }
};

struct Child {
  pid_t pid = -1;
  std::string name;
};

// Forks and execs `spec` with its stdout and stderr on new pipes (their read ends returned).
Child start(const ProcessSpec& spec, int& out_fd, int& err_fd) {
  std::vector<std::string> argv = spec.argv;
  std::vector<std::string> env = environment_with(spec.env);
  std::vector<char*> argv_p = pointers(argv), env_p = pointers(env);
  cpu_set_t cores;
  CPU_ZERO(&cores);
  for (int core : spec.cores) CPU_SET(core, &cores);
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) throw std::runtime_error(std::strerror(errno));
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    throw std::runtime_error(std::strerror(errno));
  }
  const pid_t pid = fork();
  if (pid == 0) {  // the child: async-signal-safe calls only until exec
    if (!spec.cores.empty() && sched_setaffinity(0, sizeof(cores), &cores) != 0) _exit(126);
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    execve(argv_p[0], argv_p.data(), env_p.data());
    _exit(127);
  }
  const int fork_errno = errno;
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (pid < 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    throw std::runtime_error("cannot start " + spec.name + ": " + std::strerror(fork_errno));
  }
  out_fd = out_pipe[0];
  err_fd = err_pipe[0];
  return {pid, spec.name};
}

ProcessExit wait_for(const Child& child) {
  int status = 0;
  while (waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    return {child.name, 128 + signal,
            "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")"};
  }
  const int code = WEXITSTATUS(status);
  std::string description = "exit status " + std::to_string(code);
  if (code == 126) description += " (cannot set its cores' affinity)";
  if (code == 127) description += " (cannot execute " + child.name + "'s program)";
  return {child.name, code, description};
}

}  // namespace

std::vector<ProcessExit> run_processes(const std::vector<ProcessSpec>& specs, std::ostream& out,
                                       std::ostream& err, const OnExit& on_exit) {
  const auto began = std::chrono::steady_clock::now();
  const auto now_s = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  };
  struct Running {
    Child child;
    int open_streams = 2;
    ProcessExit exit;
  };
  std::vector<Running> running;
  std::vector<Stream> streams;
  std::vector<pollfd> fds;
  std::vector<std::size_t> owner;  // per stream: its index in `running`
  std::string failed;
  const auto launch = [&](const std::vector<ProcessSpec>& batch) {
    for (const ProcessSpec& spec : batch) {
      if (!failed.empty()) return;
      int out_fd = -1, err_fd = -1;
      try {
        running.push_back({start(spec, out_fd, err_fd), 2, {}});
      } catch (const std::exception& e) {
        failed = e.what();
        return;
      }
      running.back().exit.started_s = now_s();
      const std::string prefix = "[" + spec.name + "] ";
      for (const auto& [fd, to] : {std::pair{out_fd, &out}, std::pair{err_fd, &err}}) {
        streams.push_back({fd, prefix, to, {}});
        fds.push_back({fd, POLLIN, 0});
        owner.push_back(running.size() - 1);
      }
    }
  };
  launch(specs);
  std::size_t open = fds.size();
  char buffer[4096];
  while (open > 0) {
    if (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) {
        streams[i].pending.append(buffer, static_cast<std::size_t>(n));
        streams[i].pass_lines(false);
        continue;
      }
      streams[i].pass_lines(true);
      close(fds[i].fd);
      fds[i].fd = -1;  // poll skips it from now on
      --open;
      Running& r = running[owner[i]];
      if (--r.open_streams > 0) continue;
      // Both of its streams ended: it has exited (or is about to).
      const double started = r.exit.started_s;
      r.exit = wait_for(r.child);
      r.exit.started_s = started;
      r.exit.ended_s = now_s();
      if (on_exit) {
        const std::size_t before = fds.size();
        launch(on_exit(r.exit));  // may grow `running` and `fds`: `r` is not used after this
        open += fds.size() - before;
      }
    }
  }
  std::vector<ProcessExit> exits;
  for (const Running& r : running) exits.push_back(r.exit);
  if (!failed.empty()) throw std::runtime_error(failed);
  return exits;
}

}  // namespace gcbench::driver
