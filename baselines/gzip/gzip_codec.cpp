// The gzip program as the gzip baseline: each call runs `gzip -6 -n -c` or `gzip -d -c` as a
// child process, feeding its stdin while reading its stdout (poll) so neither blocks on a full
// pipe. A cell's time is the program's wall time, its size exactly `gzip -6 -n -c FILE | wc -c`;
// a program that fails, is killed or writes nothing is an error, never a size.
#include "baselines/gzip/gzip_codec.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gcbench/container.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/typed_codec.hpp"

extern char** environ;  // NOLINT: POSIX

namespace gcbench::gzip {
namespace {

constexpr std::size_t kGzipMinMember = 18;  // 10-byte header, empty deflate, 8-byte trailer
constexpr std::size_t kStderrKept = 4096;

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

struct Pipe {
  Fd read, write;
};

Pipe make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("gzip: pipe failed: ") + std::strerror(errno));
  }
  return Pipe{Fd(fds[0]), Fd(fds[1])};
}

// The child process, killed and reaped if the call ends early.
class Child {
 public:
  explicit Child(pid_t pid) : pid_(pid) {}
  ~Child() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      wait();
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  int wait() {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    return status;
  }

  // Its peak resident memory so far (VmHWM), 0 once it has exited. wait4's ru_maxrss would
  // hold this process's resident memory too: the child shares it until its exec.
  std::uint64_t peak_rss_bytes() const {
    std::ifstream status("/proc/" + std::to_string(pid_) + "/status");
    for (std::string line; std::getline(status, line);) {
      if (line.starts_with("VmHWM:")) return std::stoull(line.substr(6)) * 1024;
    }
    return 0;
  }

 private:
  pid_t pid_;
};

// Writing to a pipe whose reader has exited must be an error (EPIPE), not SIGPIPE killing the
// benchmark. SIGPIPE for a pipe write goes to the writing thread, so this thread blocks it while
// it feeds the child, and takes a pending one off before unblocking; the process's disposition
// is left alone. The child gets the default action (POSIX_SPAWN_SETSIGDEF).
class SigpipeBlocked {
 public:
  SigpipeBlocked() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    ::pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~SigpipeBlocked() {
    sigset_t pending;
    sigemptyset(&pending);
    if (::sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1 &&
        sigismember(&old_, SIGPIPE) == 0) {
      const timespec zero{};
      ::sigtimedwait(&pipe_, nullptr, &zero);
    }
    ::pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  SigpipeBlocked(const SigpipeBlocked&) = delete;
  SigpipeBlocked& operator=(const SigpipeBlocked&) = delete;

 private:
  sigset_t pipe_{}, old_{};
};

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "status " + std::to_string(status);
}

struct RunResult {
  Bytes out;
  std::string err;
  int status = 0;
  std::uint64_t peak_rss_bytes = 0;  // the program's
  bool ok() const { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }
};

// The most a filter may write to its stdout, and the error when it writes more.
struct OutputCap {
  std::uint64_t bytes;
  std::string exceeded;  // the error's message
};

// Runs `argv` with `input` on stdin; returns its stdout (at most `cap.bytes`: more is an error
// with `cap.exceeded`, and the child is killed at once, so no more is read or buffered), stderr
// (the first few KiB) and exit status. `Error` is the exception type for anything that goes
// wrong.
template <typename Error>
RunResult run_filter(const std::vector<std::string>& argv, ByteSpan input, const OutputCap& cap) {
  Pipe in = make_pipe(), out = make_pipe(), err = make_pipe();

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.read.get(), 0);
  posix_spawn_file_actions_adddup2(&actions, out.write.get(), 1);
  posix_spawn_file_actions_adddup2(&actions, err.write.get(), 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);

  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, argv[0].c_str(), &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) throw Error("gzip: cannot run " + argv[0] + ": " + std::strerror(rc));
  Child child(pid);
  in.read.reset();
  out.write.reset();
  err.write.reset();
  ::fcntl(in.write.get(), F_SETFL, O_NONBLOCK);
  const SigpipeBlocked no_sigpipe;

  RunResult r;
  // The output in blocks, joined at the end block by block, each freed once copied: a doubling
  // buffer would hold up to twice the cap while it grows; this holds the output and one block.
  constexpr std::size_t kBlock = std::size_t{4} << 20;
  std::vector<Bytes> blocks;
  std::uint64_t out_bytes = 0;
  std::uint64_t reads = 0;  // of the child's output
  std::size_t written = 0;
  if (input.empty()) {
    r.peak_rss_bytes = child.peak_rss_bytes();
    in.write.reset();
  }
  bool out_open = true, err_open = true;
  std::vector<std::uint8_t> buf(std::size_t{1} << 16);
  while (out_open || err_open) {
    pollfd fds[3];
    nfds_t n = 0;
    int in_i = -1, out_i = -1, err_i = -1;
    if (in.write.get() >= 0) fds[in_i = static_cast<int>(n++)] = {in.write.get(), POLLOUT, 0};
    if (out_open) fds[out_i = static_cast<int>(n++)] = {out.read.get(), POLLIN, 0};
    if (err_open) fds[err_i = static_cast<int>(n++)] = {err.read.get(), POLLIN, 0};
    if (::poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("gzip: poll failed: ") + std::strerror(errno));
    }
    if (in_i >= 0 && fds[in_i].revents != 0) {
      const ssize_t w = ::write(in.write.get(), input.data() + written,
                                std::min<std::size_t>(input.size() - written, 1 << 20));
      if (w > 0) written += static_cast<std::size_t>(w);
      // EPIPE: the program stopped reading; its exit status says why.
      if ((w < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) {
        // Alive until it reads the end of its input: its buffers are all allocated by now.
        r.peak_rss_bytes = std::max(r.peak_rss_bytes, child.peak_rss_bytes());
        in.write.reset();
      }
    }
    if (out_i >= 0 && fds[out_i].revents != 0) {
      // Its high-water mark only grows: read at its first output and then now and then while it
      // runs (a read costs a few microseconds), and when its output ends.
      if (reads++ % 16 == 0) {
        r.peak_rss_bytes = std::max(r.peak_rss_bytes, child.peak_rss_bytes());
      }
      const ssize_t got = ::read(out.read.get(), buf.data(), buf.size());
      if (got > 0) {
        out_bytes += static_cast<std::uint64_t>(got);
        if (out_bytes > cap.bytes) throw Error(cap.exceeded);
        if (blocks.empty() || blocks.back().size() + static_cast<std::size_t>(got) > kBlock) {
          blocks.emplace_back().reserve(kBlock);
        }
        blocks.back().insert(blocks.back().end(), buf.data(), buf.data() + got);
      } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
        out_open = false;
        r.peak_rss_bytes = std::max(r.peak_rss_bytes, child.peak_rss_bytes());
      }
    }
    if (err_i >= 0 && fds[err_i].revents != 0) {
      const ssize_t got = ::read(err.read.get(), buf.data(), buf.size());
      if (got > 0) {
        const std::size_t keep =
            std::min<std::size_t>(static_cast<std::size_t>(got), kStderrKept - r.err.size());
        r.err.append(reinterpret_cast<const char*>(buf.data()), keep);
      } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
        err_open = false;
      }
    }
  }
  in.write.reset();
  r.out.reserve(out_bytes);
  for (Bytes& block : blocks) {
    r.out.insert(r.out.end(), block.begin(), block.end());
    Bytes().swap(block);
  }
  r.status = child.wait();
  while (!r.err.empty() && (r.err.back() == '\n' || r.err.back() == '\r')) r.err.pop_back();
  return r;
}

template <typename Error>
[[noreturn]] void fail(const std::string& what, const RunResult& r) {
  throw Error("gzip: " + what + " failed (" + describe_status(r.status) + ")" +
              (r.err.empty() ? std::string() : ": " + r.err));
}

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// `name` itself if it holds a '/', else the first executable `name` on PATH; "" if none.
std::string resolve(const std::string& name) {
  if (name.find('/') != std::string::npos) return is_executable_file(name) ? name : "";
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string candidate =
        (end > start ? dirs.substr(start, end - start) : std::string(".")) + "/" + name;
    if (is_executable_file(candidate)) return candidate;
    start = end + 1;
  }
  return "";
}

class GzipCodec final : public TypedCodec<GzipCodec> {
 public:
  explicit GzipCodec(Program program) : program_(std::move(program)) {
    info_.name = "gzip";
    info_.version = program_.version + " (" + program_.path + ")";
    info_.device = Device::cpu;
    info_.role = Role::baseline;
    info_.in_process = false;  // the gzip program works while this thread waits on its pipes
    info_.description =
        "the gzip program (" + program_.path +
        ") run through pipes: gzip -6 -n / gzip -d; time is the program's wall time "
        "(process start, pipe transfers, exit)";
    // A process start per call, then the program's rate per byte compressing or decompressing.
    info_.speed_model = [](const CallEstimate& e) {
      return 0.002 + e.bytes / (e.compress ? 15e6 : 150e6);
    };
  }

  // No axes: gzip -6 always (bind rejects any name).
  struct Typed {};

  const CodecInfo& info() const override { return info_; }

  Typed typed(const Params& /*resolved*/) const { return {}; }

  std::uint64_t max_compressed_size(std::uint64_t input_size, const Typed& /*p*/) const {
    // Stored blocks at worst: 5 bytes per 16 KiB block, plus header and trailer.
    return input_size + 5 * (input_size / 16383 + 1) + 64;
  }

  Bytes compress(ByteSpan input, const Typed& p, RunStats* stats) const {
    const std::uint64_t most = max_compressed_size(input.size(), p);
    const RunResult r = run_filter<std::runtime_error>(
        {program_.path, "-6", "-n", "-c"}, input,
        {most, "gzip: compression wrote more than " + std::to_string(most) + " bytes"});
    if (!r.ok()) fail<std::runtime_error>("compression", r);
    if (stats != nullptr) stats->program_peak_rss_bytes = r.peak_rss_bytes;
    if (r.out.size() < kGzipMinMember || r.out[0] != 0x1f || r.out[1] != 0x8b) {
      throw std::runtime_error("gzip: compression wrote " + std::to_string(r.out.size()) +
                               " bytes, not a gzip member");
    }
    return r.out;
  }

  Bytes decompress(ByteSpan container, const Typed&, RunStats* stats) const {
    if (container.size() < kGzipMinMember || container[0] != 0x1f || container[1] != 0x8b ||
        container[2] != 8) {
      throw DecodeError("gzip: not a gzip member");
    }
    // `gzip -d` decodes more than one deflate member: members after the first, of any method
    // it knows (LZW's .Z among them, which expands far more than deflate can). Neither the
    // trailer's ISIZE (the last 4 bytes, whatever follows the first member) nor deflate's
    // largest expansion bounds its output, so the decode limit (container.hpp) caps what is
    // read from the pipe, and the program is stopped when it writes more.
    const std::uint64_t limit = decode_limit_for(container.size());
    const std::string exceeded =
        "gzip: decompressed output exceeds the decode limit of " + std::to_string(limit) +
        " bytes for a " + std::to_string(container.size()) + "-byte container; gzip -d stopped";
    const RunResult r =
        run_filter<DecodeError>({program_.path, "-d", "-c"}, container, {limit, exceeded});
    const std::uint64_t declared = load_le<std::uint32_t>(container.data() + container.size() - 4);
    if (!r.ok()) fail<DecodeError>("decompression", r);
    if (stats != nullptr) stats->program_peak_rss_bytes = r.peak_rss_bytes;
    if ((r.out.size() & 0xffffffffu) != declared) {
      throw DecodeError("gzip: decompressed " + std::to_string(r.out.size()) +
                        " bytes, the member declares " + std::to_string(declared) + " (mod 2^32)");
    }
    return r.out;
  }

 private:
  Program program_;
  CodecInfo info_;
};

}  // namespace

std::optional<Program> find_program(std::string* reason) {
  const char* over = std::getenv("GCBENCH_GZIP");
  const std::string name = (over != nullptr && *over != '\0') ? over : "gzip";
  const std::string where = over != nullptr && *over != '\0' ? " (GCBENCH_GZIP)" : " on PATH";
  const std::string path = resolve(name);
  if (path.empty()) {
    if (reason != nullptr)
      *reason = "no gzip program: '" + name + "' not found" + where +
                " (install gzip, or set GCBENCH_GZIP to its path)";
    return std::nullopt;
  }
  try {
    const RunResult r = run_filter<std::runtime_error>(
        {path, "--version"}, {}, {1 << 20, path + " --version wrote more than 1 MiB"});
    const std::string text(r.out.begin(), r.out.end());
    const std::string first = text.substr(0, text.find('\n'));
    if (!r.ok() || first.empty()) {
      if (reason != nullptr)
        *reason = path + " --version failed (" + describe_status(r.status) + ")";
      return std::nullopt;
    }
    return Program{path, first};
  } catch (const std::exception& e) {
    if (reason != nullptr) *reason = e.what();
    return std::nullopt;
  }
}

CodecPtr make_codec(Program program) {
  return std::make_unique<GzipCodec>(std::move(program));
}

}  // namespace gcbench::gzip
