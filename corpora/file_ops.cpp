#include "corpora/file_ops.hpp"

#include <bzlib.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <stdexcept>

extern char** environ;

namespace gcbench::corpora {
namespace fs = std::filesystem;
namespace {

std::string unique_suffix() {
  static std::atomic<unsigned> counter{0};
  return std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

const char* bz_error_name(int code) {
  switch (code) {
    case BZ_DATA_ERROR:
      return "data error (corrupt bzip2 stream)";
    case BZ_DATA_ERROR_MAGIC:
      return "not a bzip2 stream";
    case BZ_MEM_ERROR:
      return "out of memory";
    case BZ_UNEXPECTED_EOF:
      return "unexpected end of file";
    default:
      return "bzip2 error";
  }
}

// The last line of a program's standard error: it says what finally went wrong (curl repeats
// its error once per retry).
std::string last_line(std::string err) {
  while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
  if (std::size_t nl = err.find_last_of('\n'); nl != std::string::npos) err.erase(0, nl + 1);
  if (err.size() > 300) err = "..." + err.substr(err.size() - 300);
  return err;
}

int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TempFile::TempFile(const fs::path& dest) : dest_(dest) {
  std::string name = ".";  // built by appending: GCC 12 misreports "." + string (-Wrestrict)
  name += dest.filename().string();
  name += ".tmp-";
  name += unique_suffix();
  tmp_ = dest.parent_path() / name;
}

TempFile::~TempFile() {
  if (!committed_) {
    std::error_code ec;
    fs::remove(tmp_, ec);
  }
}

void TempFile::commit() {
  fs::rename(tmp_, dest_);
  committed_ = true;
}

TempDir::TempDir(const fs::path& parent) : dir_(parent / (".tmpdir-" + unique_suffix())) {
  fs::create_directories(dir_);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

void bunzip2_file(const fs::path& in, const fs::path& out, std::uint64_t max_size) {
  std::ifstream src(in, std::ios::binary);
  if (!src) throw std::runtime_error("cannot open " + in.string());
  std::ofstream dst(out, std::ios::binary | std::ios::trunc);
  if (!dst) throw std::runtime_error("cannot create " + out.string());

  std::vector<char> inbuf(1 << 20), outbuf(1 << 20);
  bz_stream strm{};
  bool stream_open = false;
  auto close_stream = [&] {
    if (stream_open) BZ2_bzDecompressEnd(&strm);
    stream_open = false;
  };
  std::uint64_t written = 0;
  bool any_stream = false;
  try {
    for (;;) {
      if (strm.avail_in == 0) {
        src.read(inbuf.data(), static_cast<std::streamsize>(inbuf.size()));
        strm.next_in = inbuf.data();
        strm.avail_in = static_cast<unsigned>(src.gcount());
        if (strm.avail_in == 0) break;  // end of input
      }
      if (!stream_open) {
        if (BZ2_bzDecompressInit(&strm, 0, 0) != BZ_OK) throw std::runtime_error("bzip2 init");
        stream_open = true;
      }
      strm.next_out = outbuf.data();
      strm.avail_out = static_cast<unsigned>(outbuf.size());
      int rc = BZ2_bzDecompress(&strm);
      if (rc != BZ_OK && rc != BZ_STREAM_END) {
        throw std::runtime_error(std::string(bz_error_name(rc)) + " in " + in.string());
      }
      std::size_t produced = outbuf.size() - strm.avail_out;
      written += produced;
      if (written > max_size) {
        throw std::runtime_error(in.string() + " decompresses to more than the expected " +
                                 std::to_string(max_size) + " bytes");
      }
      dst.write(outbuf.data(), static_cast<std::streamsize>(produced));
      if (rc == BZ_STREAM_END) {  // a following stream, if any, starts with fresh state
        unsigned left = strm.avail_in;
        char* next = strm.next_in;
        close_stream();
        strm = bz_stream{};
        strm.next_in = next;
        strm.avail_in = left;
        any_stream = true;
      } else if (produced == 0 && strm.avail_in != 0) {
        throw std::runtime_error("bzip2 made no progress on " + in.string());
      }
    }
  } catch (...) {
    close_stream();
    throw;
  }
  if (stream_open) {
    close_stream();
    throw std::runtime_error(std::string(bz_error_name(BZ_UNEXPECTED_EOF)) + " in " + in.string());
  }
  if (!any_stream) throw std::runtime_error(in.string() + " is empty");
  dst.flush();
  if (!dst) throw std::runtime_error("write error on " + out.string());
}

namespace {

// Starts argv[0] (looked up in PATH) with `actions`, which it destroys. -1 when it could not
// start, with the reason in `result`.
pid_t spawn(const std::vector<std::string>& argv, posix_spawn_file_actions_t& actions,
            ProgramResult& result) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc == 0) return pid;
  result.diagnostics = argv[0] + ": " + std::strerror(rc);
  result.spawn_error = rc;
  return -1;
}

}  // namespace

ProgramResult run_program(const std::vector<std::string>& argv) {
  ProgramResult result;
  int err_pipe[2];
  if (::pipe(err_pipe) != 0) {
    result.diagnostics = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, err_pipe[0]);
  posix_spawn_file_actions_addclose(&actions, err_pipe[1]);

  const pid_t pid = spawn(argv, actions, result);
  ::close(err_pipe[1]);
  if (pid < 0) {
    ::close(err_pipe[0]);
    return result;
  }
  std::string err;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(err_pipe[0], buf, sizeof buf);
    if (n > 0) {
      err.append(buf, static_cast<std::size_t>(n));
      if (err.size() > 64 * 1024) err.erase(0, err.size() - 4096);  // keep the tail
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  ::close(err_pipe[0]);
  result.exit_code = wait_for(pid);
  result.diagnostics = last_line(std::move(err));
  return result;
}

ProgramResult run_program_streaming(const std::vector<std::string>& argv,
                                    const std::function<void(std::string_view)>& consume) {
  ProgramResult result;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> err_file(std::tmpfile(), &std::fclose);
  if (!err_file) {
    result.diagnostics = std::string("tmpfile: ") + std::strerror(errno);
    return result;
  }
  int out_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    result.diagnostics = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, ::fileno(err_file.get()), STDERR_FILENO);

  const pid_t pid = spawn(argv, actions, result);
  ::close(out_pipe[1]);
  if (pid < 0) {
    ::close(out_pipe[0]);
    return result;
  }
  try {
    std::vector<char> buf(std::size_t{4} << 20);
    std::size_t filled = 0;
    for (;;) {  // hands over full blocks: fewer, larger calls to `consume`
      ssize_t n = ::read(out_pipe[0], buf.data() + filled, buf.size() - filled);
      if (n > 0) {
        filled += static_cast<std::size_t>(n);
        if (filled < buf.size()) continue;
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else if (n < 0) {
        throw std::runtime_error(argv[0] + ": reading its output: " + std::strerror(errno));
      }
      if (filled > 0) consume(std::string_view(buf.data(), filled));
      filled = 0;
      if (n == 0) break;
    }
  } catch (...) {
    ::close(out_pipe[0]);
    ::kill(pid, SIGKILL);
    wait_for(pid);
    throw;
  }
  ::close(out_pipe[0]);
  result.exit_code = wait_for(pid);
  std::string err;
  if (std::fseek(err_file.get(), 0, SEEK_END) == 0) {
    const long size = std::ftell(err_file.get());
    const long keep = size > 4096 ? 4096 : size;
    if (keep > 0 && std::fseek(err_file.get(), size - keep, SEEK_SET) == 0) {
      err.resize(static_cast<std::size_t>(keep));
      err.resize(std::fread(err.data(), 1, err.size(), err_file.get()));
    }
  }
  result.diagnostics = last_line(std::move(err));
  return result;
}

}  // namespace gcbench::corpora
