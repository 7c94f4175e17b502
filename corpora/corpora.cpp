// Manifest loading, default locations and plain file reading (fetch.cpp does the fetching).
#include "corpora/corpora.hpp"

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "corpora/sha256.hpp"
#include "corpora/tpch.hpp"
#include "src/cli/suggest.hpp"

namespace gcbench::corpora {
namespace fs = std::filesystem;
namespace {

// Manifest parse errors name the corpus and file so a broken edit is easy to find.
[[noreturn]] void bad_manifest(const fs::path& path, const std::string& what) {
  throw std::runtime_error("corpus manifest " + path.string() + ": " + what);
}

ManifestFile parse_file(const fs::path& path, const std::string& corpus, const nlohmann::json& j) {
  ManifestFile f;
  f.corpus = corpus;
  if (!j.is_object() || !j.contains("name") || !j["name"].is_string()) {
    bad_manifest(path, corpus + ": a file entry without a string \"name\"");
  }
  f.name = j["name"].get<std::string>();
  if (f.name.empty() || f.name.find('/') != std::string::npos || f.name.front() == '.') {
    bad_manifest(path, corpus + ": file name '" + f.name + "' is not a plain file name");
  }
  if (j.contains("url")) {
    if (!j["url"].is_string() || j["url"].get<std::string>().empty())
      bad_manifest(path, f.name + ": url is not a non-empty string");
    f.url = j["url"].get<std::string>();
  }
  if (j.contains("uncertain")) {
    if (!j["uncertain"].is_string() || j["uncertain"].get<std::string>().empty())
      bad_manifest(path, f.name + ": uncertain must say why, as a string");
    f.uncertain = j["uncertain"].get<std::string>();
  }
  if (j.contains("size")) {
    if (!j["size"].is_number_unsigned()) bad_manifest(path, f.name + ": size is not a count");
    f.declared_size = j["size"].get<std::uint64_t>();
    if (f.uncertain.empty()) f.size = f.declared_size;
  }
  if (j.contains("element_width")) {
    const auto& w = j["element_width"];
    if (!w.is_number_unsigned() || (w.get<std::uint64_t>() != 1 && w.get<std::uint64_t>() != 2 &&
                                    w.get<std::uint64_t>() != 4 && w.get<std::uint64_t>() != 8)) {
      bad_manifest(path, f.name + ": element_width must be 1, 2, 4 or 8");
    }
    f.element_width = w.get<std::uint32_t>();
  }
  if (j.contains("sha256")) {
    const auto& h = j["sha256"];
    if (!h.is_string() || h.get<std::string>().size() != 64 ||
        h.get<std::string>().find_first_not_of("0123456789abcdef") != std::string::npos) {
      bad_manifest(path, f.name + ": sha256 must be 64 lower-case hex digits");
    }
    f.sha256 = h.get<std::string>();
  }
  return f;
}

// {"program": "tpchgen-cli", "version": "4.0.0", "scale_factor": "0.01"}
GeneratorInfo parse_generator(const fs::path& path, const std::string& corpus,
                              const nlohmann::json& j) {
  auto text = [&](const char* key) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_string() ||
        j[key].get<std::string>().empty()) {
      bad_manifest(path, corpus + ": generator needs a non-empty string \"" + key + "\"");
    }
    return j[key].get<std::string>();
  };
  GeneratorInfo g{text("program"), text("version"), text("scale_factor")};
  if (g.program != "tpchgen-cli") {
    bad_manifest(path,
                 corpus + ": unknown generator program '" + g.program + "' (known: tpchgen-cli)");
  }
  if (!is_plain_decimal(g.scale_factor)) {
    bad_manifest(path, corpus + ": scale_factor '" + g.scale_factor + "' is not a plain decimal");
  }
  return g;
}

void parse_corpora(const fs::path& path, const nlohmann::json& corpora, Manifest& m) {
  for (const auto& c : corpora) {
    if (!c.is_object() || !c.contains("name") || !c["name"].is_string()) {
      bad_manifest(path, "a corpus without a string \"name\"");
    }
    CorpusInfo info;
    info.name = c["name"].get<std::string>();
    for (const auto& known : m.corpora) {
      if (known == info.name) bad_manifest(path, "corpus '" + info.name + "' listed twice");
    }
    info.title = c.value("title", info.name);
    info.page = c.value("page", "");
    info.note = c.value("note", "");
    if (c.contains("generator")) info.generator = parse_generator(path, info.name, c["generator"]);
    if (!c.contains("files") || !c["files"].is_array())
      bad_manifest(path, info.name + ": no files");
    for (const auto& fj : c["files"]) {
      ManifestFile f = parse_file(path, info.name, fj);
      for (const auto& other : m.files) {
        if (other.corpus == f.corpus && other.name == f.name) {
          bad_manifest(path, info.name + "/" + f.name + " listed twice");
        }
      }
      m.files.push_back(std::move(f));
    }
    const std::size_t listed = m.files_of(info.name).size();
    info.expected_files = c.value("expected_files", std::uint64_t{listed});
    if (info.expected_files < listed) {
      bad_manifest(path, info.name + ": expected_files is less than the files listed");
    }
    m.corpora.push_back(info.name);
    m.info.push_back(std::move(info));
  }
}

}  // namespace

std::vector<ManifestFile> Manifest::files_of(const std::string& corpus) const {
  std::vector<ManifestFile> out;
  for (const auto& f : files) {
    if (f.corpus == corpus) out.push_back(f);
  }
  return out;
}

const CorpusInfo& Manifest::corpus(const std::string& name) const {
  for (const auto& c : info) {
    if (c.name == name) return c;
  }
  std::string known;
  for (const auto& c : corpora) known += (known.empty() ? "" : ", ") + c;
  throw std::invalid_argument("unknown corpus '" + name + "'" + cli::did_you_mean(name, corpora) +
                              " (known: " + known + ")");
}

fs::path default_manifest_path() {
  return fs::path(GCBENCH_SOURCE_DIR) / "corpora/manifest.json";
}

Manifest load_manifest(const fs::path& path) {
  Bytes raw = read_file(path);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(raw.begin(), raw.end());
  } catch (const nlohmann::json::exception& e) {
    bad_manifest(path, e.what());
  }
  Manifest m;
  m.digest = sha256_hex(raw);
  try {
    if (!j.is_object() || j.value("schema", 0) != 1 || !j.contains("corpora") ||
        !j["corpora"].is_array()) {
      bad_manifest(path, "expected {\"schema\": 1, \"corpora\": [...]}");
    }
    parse_corpora(path, j["corpora"], m);
  } catch (const nlohmann::json::exception& e) {  // a field of the wrong type
    bad_manifest(path, e.what());
  }
  return m;
}

FetchOptions default_fetch_options() {
  const fs::path source(GCBENCH_SOURCE_DIR);
  FetchOptions o;
  if (const char* env = std::getenv("GCBENCH_CORPUS_MIRROR"); env != nullptr && *env != '\0') {
    std::string list(env);
    std::size_t start = 0;
    while (start <= list.size()) {
      std::size_t end = list.find(':', start);
      if (end == std::string::npos) end = list.size();
      if (end > start) o.mirrors.emplace_back(list.substr(start, end - start));
      start = end + 1;
    }
  } else {
    for (const fs::path& candidate : {source / "../shared/corpora", source / ".carry/corpora"}) {
      std::error_code ec;
      if (fs::is_directory(candidate, ec)) {
        o.mirrors.push_back(candidate.lexically_normal());
        break;
      }
    }
  }
  const char* cache = std::getenv("GCBENCH_CORPUS_CACHE");
  o.cache_dir = (cache != nullptr && *cache != '\0') ? fs::path(cache) : source / "corpora/cache";
  return o;
}

Bytes read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  std::streamoff size = in.tellg();
  if (size < 0) throw std::runtime_error("cannot size " + path.string());
  Bytes data(static_cast<std::size_t>(size));
  in.seekg(0);
  in.read(reinterpret_cast<char*>(data.data()), size);
  if (in.gcount() != size) throw std::runtime_error("short read on " + path.string());
  return data;
}

}  // namespace gcbench::corpora
