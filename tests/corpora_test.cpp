// Manifest, SHA-256 and fetch: mirror copies verified in place, Silesia's .bz2 unpacked into a
// cache, damaged copies and unavailable corpora reported with their reason; the TPC-H columns'
// parser and their generation with tpchgen-cli.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "corpora/corpora.hpp"
#include "corpora/sha256.hpp"
#include "corpora/tpch.hpp"

namespace {

namespace fs = std::filesystem;
using namespace gcbench::corpora;

// A fresh directory under the system temp dir, removed with its contents afterwards.
class TempTree {
 public:
  TempTree() {
    static int counter = 0;
    dir_ = fs::temp_directory_path() /
           ("gcbench-corpora-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~TempTree() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  const fs::path& path() const { return dir_; }

 private:
  fs::path dir_;
};

void write_text(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// The mirror the suite was given, or nullopt (the test then skips and says why).
std::optional<fs::path> mirror() {
  auto options = default_fetch_options();
  if (options.mirrors.empty()) return std::nullopt;
  return options.mirrors.front();
}

bool have_program(const std::string& name) {
  return std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0;
}

const MissingFile* find_missing(const FetchResult& r, const std::string& name) {
  for (const auto& m : r.missing) {
    if (m.entry.name == name) return &m;
  }
  return nullptr;
}

TEST(Sha256, MatchesPublishedVectors) {
  auto text = [](const std::string& s) {
    return gcbench::ByteSpan(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
  };
  EXPECT_EQ(sha256_hex(text("")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex(text("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(text("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(text(std::string(1000000, 'a'))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PiecewiseUpdatesEqualOneShot) {
  std::string data;
  for (int i = 0; i < 300; ++i) data.push_back(static_cast<char>(i * 7 + 3));
  const gcbench::ByteSpan all(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
  const std::string expected = sha256_hex(all);
  for (std::size_t cut = 0; cut <= data.size(); cut += 13) {
    Sha256 h;
    h.update(all.first(cut));
    h.update(all.subspan(cut));
    EXPECT_EQ(to_hex(h.finish()), expected) << "split at " << cut;
  }
}

TEST(Manifest, ListsTheCorporaWithTheirPublishedFileCounts) {
  const Manifest m = load_manifest();
  EXPECT_EQ(m.corpora, (std::vector<std::string>{"silesia", "calgary", "canterbury", "prague",
                                                 "tpch-sf0.01", "tpch-sf1", "tpch-sf10"}));
  EXPECT_EQ(m.files_of("silesia").size(), 12u);
  EXPECT_EQ(m.files_of("calgary").size(), 18u);
  EXPECT_EQ(m.files_of("canterbury").size(), 11u);
  EXPECT_EQ(m.corpus("silesia").expected_files, 12u);
  EXPECT_EQ(m.corpus("calgary").expected_files, 18u);
  EXPECT_EQ(m.corpus("canterbury").expected_files, 11u);
  EXPECT_EQ(m.corpus("prague").expected_files, 30u);
  EXPECT_LE(m.files_of("prague").size(), 30u);
  for (const std::string sf : {"0.01", "1", "10"}) {
    const CorpusInfo& info = m.corpus("tpch-sf" + sf);
    EXPECT_EQ(info.expected_files, 20u);
    EXPECT_EQ(m.files_of(info.name).size(), 20u);
    ASSERT_TRUE(info.generator.has_value()) << info.name;
    EXPECT_EQ(info.generator->program, "tpchgen-cli");
    EXPECT_EQ(info.generator->version, "4.0.0");
    EXPECT_EQ(info.generator->scale_factor, sf);
  }
  for (const std::string name : {"silesia", "calgary", "canterbury", "prague"}) {
    EXPECT_FALSE(m.corpus(name).generator.has_value()) << name;
  }
  EXPECT_EQ(m.digest, sha256_hex(read_file(default_manifest_path())));
}

// The TPC-H corpora list exactly the schema's column files, each with its size, sha256 and
// element width; the sizes follow from the row counts (SF 1: 6001215 lineitems, 1.5 M orders).
TEST(Manifest, TpchCorporaListEveryColumnWithItsWidth) {
  const Manifest m = load_manifest();
  const std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> rows = {
      {"tpch-sf0.01", {60175, 15000}},
      {"tpch-sf1", {6001215, 1500000}},
      {"tpch-sf10", {59986052, 15000000}}};
  for (const auto& [corpus, counts] : rows) {
    const auto files = m.files_of(corpus);
    ASSERT_EQ(files.size(), tpch_columns().size()) << corpus;
    for (std::size_t i = 0; i < files.size(); ++i) {
      const TpchColumn& c = tpch_columns()[i];
      const ManifestFile& f = files[i];
      EXPECT_EQ(f.name, tpch_file_name(c));
      EXPECT_EQ(f.element_width, c.width) << f.name;
      EXPECT_TRUE(f.sha256.has_value()) << corpus << "/" << f.name;
      EXPECT_TRUE(f.url.empty()) << f.name;
      const std::uint64_t n = c.table == "lineitem" ? counts.first : counts.second;
      EXPECT_EQ(f.size, n * c.width) << corpus << "/" << f.name;
    }
  }
}

TEST(Manifest, KnowsSizesChecksumsAndUrls) {
  const Manifest m = load_manifest();
  for (const auto& f : m.files) {
    if (f.corpus == "prague") continue;          // below
    if (m.corpus(f.corpus).generator) continue;  // generated, no URL: above
    EXPECT_TRUE(f.size.has_value()) << f.corpus << "/" << f.name;
    EXPECT_TRUE(f.url.starts_with("https://") || f.url.starts_with("http://")) << f.url;
    if (f.corpus != "silesia") {
      EXPECT_TRUE(f.sha256.has_value()) << f.corpus << "/" << f.name;
    }
  }
  auto size_of = [&](const std::string& name) {
    for (const auto& f : m.files_of("silesia")) {
      if (f.name == name) return f.size.value_or(0);
    }
    return std::uint64_t{0};
  };
  EXPECT_EQ(size_of("mozilla"), 51220480u);  // the official table's sizes
  EXPECT_EQ(size_of("samba"), 21606400u);
  EXPECT_EQ(size_of("sao"), 7251944u);
  EXPECT_EQ(size_of("webster"), 41458703u);
  EXPECT_EQ(size_of("dickens"), 10192446u);
}

// Prague: the 30 names and published sizes, no checksums, no per-file URL (the corpus page is
// the source); the entries in doubt are marked and their sizes are not checked.
TEST(Manifest, PragueListsItsThirtyFilesWithUncertainOnesMarked) {
  const Manifest m = load_manifest();
  const auto files = m.files_of("prague");
  ASSERT_EQ(files.size(), 30u);
  EXPECT_EQ(m.corpus("prague").page, "http://www.stringology.org/PragueCorpus/");
  std::vector<std::string> uncertain;
  std::uint64_t declared = 0;
  for (const auto& f : files) {
    ASSERT_TRUE(f.declared_size.has_value()) << f.name;
    declared += *f.declared_size;
    EXPECT_FALSE(f.sha256.has_value()) << f.name;
    EXPECT_TRUE(f.url.empty()) << f.name;
    if (f.uncertain.empty()) {
      EXPECT_EQ(f.size, f.declared_size) << f.name;
    } else {
      uncertain.push_back(f.name);
      EXPECT_FALSE(f.size.has_value()) << f.name << ": an uncertain size must not be checked";
    }
  }
  EXPECT_EQ(uncertain, (std::vector<std::string>{"lzlindmt", "nightsh", "venus"}));
  EXPECT_EQ(files.front().name, "abbot");
  EXPECT_EQ(files.front().size, 349055u);
  EXPECT_EQ(declared, 44815064u);  // the sum of prague-files.tsv
}

TEST(Manifest, RejectsBrokenManifestsWithAClearError) {
  TempTree t;
  const std::string file_ok = R"({"name": "a", "size": 1, "url": "https://x/a"})";
  const std::vector<std::string> broken = {
      "not json",
      R"({"schema": 2, "corpora": []})",
      R"({"schema": 1, "corpora": [{"name": "c", "files": [{"name": "a", "url": 5}]}]})",
      R"({"schema": 1, "corpora": [{"name": "c", "files": [{"name": "a", "url": ""}]}]})",
      R"({"schema": 1, "corpora": [{"name": "c", "files": [{"name": "a", "uncertain": ""}]}]})",
      R"({"schema": 1, "corpora": [{"name": "c", "files": [{"name": "a", "uncertain": 1}]}]})",
      R"({"schema": 1, "corpora": [{"name": "c", "files": [{"name": "../a", "url": "u"}]}]})",
      R"({"schema": 1, "corpora": [{"name": "c", "files": [{"name": "a", "url": "u", "sha256": "xyz"}]}]})",
      R"({"schema": 1, "corpora": [{"name": "c", "files": [{"name": "a", "url": "u", "size": -1}]}]})",
      R"({"schema": 1, "corpora": [{"name": "c", "files": [)" + file_ok + "," + file_ok + "]}]}",
      R"({"schema": 1, "corpora": [{"name": "c", "expected_files": 0, "files": [)" + file_ok +
          "]}]}",
      R"({"schema": 1, "corpora": [{"name": "c", "title": 5, "files": []}]})",
      R"({"schema": 1, "corpora": [{"name": "c", "files": [{"name": "a", "element_width": 3}]}]})",
      R"({"schema": 1, "corpora": [{"name": "c", "files": [{"name": "a", "element_width": "4"}]}]})",
      R"({"schema": 1, "corpora": [{"name": "c", "generator": {"program": "tpchgen-cli",)"
      R"( "version": "4.0.0"}, "files": []}]})",
      R"({"schema": 1, "corpora": [{"name": "c", "generator": {"program": "dbgen",)"
      R"( "version": "1", "scale_factor": "1"}, "files": []}]})",
      R"({"schema": 1, "corpora": [{"name": "c", "generator": {"program": "tpchgen-cli",)"
      R"( "version": "4.0.0", "scale_factor": "1; rm -rf /"}, "files": []}]})",
  };
  for (const auto& text : broken) {
    write_text(t.path() / "m.json", text);
    EXPECT_THROW(load_manifest(t.path() / "m.json"), std::runtime_error) << text;
  }
  write_text(t.path() / "m.json",
             R"({"schema": 1, "corpora": [{"name": "c", "files": [)" + file_ok + "]}]}");
  EXPECT_EQ(load_manifest(t.path() / "m.json").files_of("c").size(), 1u);
}

TEST(Fetch, UnknownCorpusThrows) {
  const Manifest m = load_manifest();
  EXPECT_THROW(fetch(m, "enwik9", default_fetch_options()), std::invalid_argument);
}

TEST(Fetch, DefaultOptionsFollowTheEnvironment) {
  ::setenv("GCBENCH_CORPUS_MIRROR", "/m/one::/m/two", 1);
  ::setenv("GCBENCH_CORPUS_CACHE", "/c/cache", 1);
  const FetchOptions o = default_fetch_options();
  ::unsetenv("GCBENCH_CORPUS_MIRROR");
  ::unsetenv("GCBENCH_CORPUS_CACHE");
  EXPECT_EQ(o.mirrors, (std::vector<fs::path>{"/m/one", "/m/two"}));
  EXPECT_EQ(o.cache_dir, fs::path("/c/cache"));
  EXPECT_TRUE(o.allow_download);
}

// No Prague file is mirrored: each of the 30 is reported missing once, with the reason.
TEST(Fetch, PragueFilesAreEachReportedMissingOnceWithAReason) {
  TempTree t;
  FetchOptions o = default_fetch_options();
  o.cache_dir = t.path();
  o.mirrors = {t.path() / "mirror"};
  o.allow_download = false;
  const Manifest m = load_manifest();
  const FetchResult r = fetch(m, "prague", o);
  EXPECT_TRUE(r.present.empty());
  ASSERT_EQ(r.missing.size(), 30u);
  std::set<std::string> names;
  for (const auto& x : r.missing) {
    names.insert(x.entry.name);
    EXPECT_TRUE(contains(x.reason, "not in mirror")) << x.reason;
  }
  EXPECT_EQ(names.size(), 30u);
  o.allow_download = true;  // nothing to download from: said so, and nothing is fetched
  const FetchResult d = fetch(m, "prague", o);
  ASSERT_EQ(d.missing.size(), 30u);
  EXPECT_TRUE(contains(d.missing[0].reason, "no download URL")) << d.missing[0].reason;
}

// An uncertain entry is found by its name alone: its declared size is not checked.
TEST(Fetch, UncertainSizesAreNotChecked) {
  TempTree t;
  write_text(t.path() / "m.json", R"({"schema": 1, "corpora": [{"name": "p", "files": [)"
                                  R"({"name": "venus", "size": 3, "uncertain": "size in doubt"},)"
                                  R"({"name": "flower", "size": 3}]}]})");
  fs::create_directories(t.path() / "mirror" / "p");
  write_text(t.path() / "mirror" / "p" / "venus", "longer than three bytes");
  write_text(t.path() / "mirror" / "p" / "flower", "longer than three bytes");
  FetchOptions o = default_fetch_options();
  o.cache_dir = t.path() / "cache";
  o.mirrors = {t.path() / "mirror"};
  o.allow_download = false;
  const FetchResult r = fetch(load_manifest(t.path() / "m.json"), "p", o);
  ASSERT_EQ(r.present.size(), 1u);
  EXPECT_EQ(r.present[0].entry.name, "venus");
  ASSERT_EQ(r.missing.size(), 1u);
  EXPECT_EQ(r.missing[0].entry.name, "flower");
}

TEST(Fetch, CalgaryAndCanterburyMirrorCopiesAreVerifiedAndUsedInPlace) {
  const auto mirror_dir = mirror();
  if (!mirror_dir) GTEST_SKIP() << "no corpus mirror: set GCBENCH_CORPUS_MIRROR";
  TempTree t;
  FetchOptions o = default_fetch_options();
  o.cache_dir = t.path();
  o.allow_download = false;
  const Manifest m = load_manifest();
  for (const std::string corpus : {"calgary", "canterbury"}) {
    const FetchResult r = fetch(m, corpus, o);
    for (const auto& x : r.missing)
      ADD_FAILURE() << corpus << "/" << x.entry.name << ": " << x.reason;
    EXPECT_EQ(r.present.size(), m.files_of(corpus).size());
    for (const auto& p : r.present) {
      EXPECT_EQ(p.path, *mirror_dir / corpus / p.entry.name) << "not used in place";
      const gcbench::Bytes data = read_file(p.path);  // verify independently of fetch()
      EXPECT_EQ(data.size(), p.entry.size.value());
      EXPECT_EQ(sha256_hex(data), p.entry.sha256.value()) << p.path;
    }
  }
  EXPECT_TRUE(fs::exists(t.path() / ".verified.json")) << "digests were not memoised";
}

TEST(Fetch, DamagedMirrorCopiesAreReportedMissingWithTheReason) {
  const auto mirror_dir = mirror();
  if (!mirror_dir) GTEST_SKIP() << "no corpus mirror: set GCBENCH_CORPUS_MIRROR";
  TempTree t;
  const fs::path bad_mirror = t.path() / "mirror";
  fs::create_directories(bad_mirror / "calgary");
  gcbench::Bytes bib = read_file(*mirror_dir / "calgary/bib");
  bib[bib.size() / 2] ^= 0x20;  // same size, different content
  std::ofstream(bad_mirror / "calgary/bib", std::ios::binary)
      .write(reinterpret_cast<const char*>(bib.data()), static_cast<std::streamsize>(bib.size()));
  std::ofstream(bad_mirror / "calgary/geo", std::ios::binary) << "short";

  FetchOptions o;
  o.mirrors = {bad_mirror};
  o.cache_dir = t.path() / "cache";
  o.allow_download = false;
  const FetchResult r = fetch(load_manifest(), "calgary", o);
  EXPECT_TRUE(r.present.empty());
  ASSERT_EQ(r.missing.size(), 18u);
  const MissingFile* b = find_missing(r, "bib");
  ASSERT_NE(b, nullptr);
  EXPECT_TRUE(contains(b->reason, "sha256 mismatch")) << b->reason;
  const MissingFile* g = find_missing(r, "geo");
  ASSERT_NE(g, nullptr);
  EXPECT_TRUE(contains(g->reason, "size mismatch")) << g->reason;
  const MissingFile* p = find_missing(r, "paper1");
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(contains(p->reason, "not in mirror " + bad_mirror.string())) << p->reason;
  EXPECT_TRUE(contains(p->reason, "download disabled")) << p->reason;
}

TEST(Fetch, TruncatedBz2LeavesNothingInTheCache) {
  const auto mirror_dir = mirror();
  if (!mirror_dir || !fs::exists(*mirror_dir / "silesia/xml.bz2")) {
    GTEST_SKIP() << "no silesia/xml.bz2 in the corpus mirror";
  }
  TempTree t;
  const fs::path bad_mirror = t.path() / "mirror";
  fs::create_directories(bad_mirror / "silesia");
  gcbench::Bytes packed = read_file(*mirror_dir / "silesia/xml.bz2");
  std::ofstream(bad_mirror / "silesia/xml.bz2", std::ios::binary)
      .write(reinterpret_cast<const char*>(packed.data()),
             static_cast<std::streamsize>(packed.size() / 2));
  FetchOptions o;
  o.mirrors = {bad_mirror};
  o.cache_dir = t.path() / "cache";
  o.allow_download = false;
  const FetchResult r = fetch(load_manifest(), "silesia", o);
  const MissingFile* x = find_missing(r, "xml");
  ASSERT_NE(x, nullptr);
  EXPECT_TRUE(contains(x->reason, "bzip2") || contains(x->reason, "end of file")) << x->reason;
  EXPECT_TRUE(fs::is_empty(o.cache_dir / "silesia")) << "a partial file was left behind";
}

// Downloads through curl from file:// URLs, so the download path is tested offline too.
TEST(Fetch, DownloadsFilesAndArchiveMembersAndReportsFailures) {
  const auto mirror_dir = mirror();
  if (!mirror_dir) GTEST_SKIP() << "no corpus mirror: set GCBENCH_CORPUS_MIRROR";
  if (!have_program("curl") || !have_program("tar")) GTEST_SKIP() << "curl or tar missing";
  TempTree t;
  const std::string archive = (t.path() / "calgary.tar.gz").string();
  ASSERT_EQ(std::system(("tar -czf " + archive + " -C " + (*mirror_dir / "calgary").string() +
                         " bib paper4")
                            .c_str()),
            0);
  const Manifest real = load_manifest();
  auto entry = [&](const std::string& corpus, const std::string& name) {
    for (const auto& f : real.files_of(corpus)) {
      if (f.name == name) return f;
    }
    throw std::logic_error("no " + name);
  };
  auto line = [](const ManifestFile& f, const std::string& url) {
    return R"({"name": ")" + f.name + R"(", "size": )" + std::to_string(*f.size) +
           R"(, "sha256": ")" + *f.sha256 + R"(", "url": ")" + url + R"("})";
  };
  const std::string tgz = "file://" + archive;
  std::string files = line(entry("calgary", "bib"), tgz) + "," +
                      line(entry("calgary", "paper4"), tgz) + "," +
                      line(entry("calgary", "paper5"), tgz) + "," +
                      line(entry("calgary", "paper6"), "file://" + t.path().string() + "/none");
  if (fs::exists(*mirror_dir / "silesia/xml.bz2")) {
    files += "," +
             line(entry("silesia", "xml"), "file://" + (*mirror_dir).string() + "/silesia/xml.bz2");
  }
  write_text(t.path() / "m.json",
             R"({"schema": 1, "corpora": [{"name": "calgary", "files": [)" + files + "]}]}");

  FetchOptions o;
  o.cache_dir = t.path() / "cache";
  const FetchResult r = fetch(load_manifest(t.path() / "m.json"), "calgary", o);
  std::vector<std::string> present;
  for (const auto& p : r.present) {
    present.push_back(p.entry.name);
    EXPECT_EQ(p.path, o.cache_dir / "calgary" / p.entry.name);
    EXPECT_EQ(sha256_hex(read_file(p.path)), *p.entry.sha256);
  }
  std::sort(present.begin(), present.end());
  std::vector<std::string> expected = {"bib", "paper4"};
  if (fs::exists(*mirror_dir / "silesia/xml.bz2")) expected.push_back("xml");
  EXPECT_EQ(present, expected);
  const MissingFile* no_member = find_missing(r, "paper5");
  ASSERT_NE(no_member, nullptr);
  EXPECT_TRUE(contains(no_member->reason, "no member named paper5")) << no_member->reason;
  const MissingFile* bad_url = find_missing(r, "paper6");
  ASSERT_NE(bad_url, nullptr);
  EXPECT_TRUE(contains(bad_url->reason, "curl failed")) << bad_url->reason;
  // Only finished files remain: no temporary files or unpacked archives.
  for (const auto& e : fs::recursive_directory_iterator(o.cache_dir)) {
    EXPECT_FALSE(e.path().filename().string().starts_with(".tmp")) << e.path();
    EXPECT_FALSE(contains(e.path().filename().string(), ".tmp-")) << e.path();
  }
}

// Silesia's mirror copies are .bz2: unpacked into a temporary cache (~90 MB), once, so all
// Silesia checks live in this one test (ctest runs every test in its own process).
TEST(Fetch, SilesiaBz2MirrorCopiesAreUnpackedVerifiedAndThenServedFromTheCache) {
  const auto mirror_dir = mirror();
  if (!mirror_dir || !fs::is_directory(*mirror_dir / "silesia")) {
    GTEST_SKIP() << "no silesia folder in the corpus mirror";
  }
  TempTree t;
  FetchOptions o;
  o.mirrors = {*mirror_dir};
  o.cache_dir = t.path();
  o.allow_download = false;
  const Manifest m = load_manifest();
  const FetchResult r = fetch(m, "silesia", o);

  std::size_t mirrored = 0;
  for (const auto& f : m.files_of("silesia")) {
    if (!fs::exists(*mirror_dir / "silesia" / (f.name + ".bz2"))) continue;
    ++mirrored;
    auto it = std::find_if(r.present.begin(), r.present.end(),
                           [&](const LocalFile& p) { return p.entry.name == f.name; });
    ASSERT_NE(it, r.present.end()) << f.name << " is in the mirror but not present";
    EXPECT_EQ(it->path, o.cache_dir / "silesia" / f.name);
    EXPECT_EQ(fs::file_size(it->path), f.size.value());
    if (f.sha256) {
      EXPECT_EQ(sha256_file_hex(it->path), *f.sha256) << f.name;
    }
  }
  EXPECT_GT(mirrored, 0u);
  EXPECT_EQ(r.present.size(), mirrored);
  EXPECT_EQ(r.present.size() + r.missing.size(), 12u);
  for (const auto& x : r.missing) {
    EXPECT_TRUE(contains(x.reason, "not in mirror")) << x.entry.name << ": " << x.reason;
    EXPECT_TRUE(contains(x.reason, "download disabled")) << x.entry.name << ": " << x.reason;
  }

  FetchOptions cache_only = o;
  cache_only.mirrors.clear();
  const FetchResult again = fetch(m, "silesia", cache_only);
  EXPECT_EQ(again.present.size(), r.present.size());
  for (const auto& p : again.present) EXPECT_EQ(p.path.parent_path(), o.cache_dir / "silesia");
}

// ---- TPC-H columns --------------------------------------------------------------------------

// The little-endian values of one parsed column.
std::vector<std::uint64_t> values(const std::vector<std::uint8_t>& bytes, std::uint32_t width) {
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i + width <= bytes.size(); i += width) {
    std::uint64_t v = 0;
    for (std::uint32_t b = 0; b < width; ++b) v |= std::uint64_t{bytes[i + b]} << (8 * b);
    out.push_back(v);
  }
  return out;
}

// The columns of `table` by name: their values, in row order.
std::map<std::string, std::vector<std::uint64_t>> parse_columns(const std::string& table,
                                                                const std::string& text) {
  const auto bytes = parse_tbl(table, text);
  std::map<std::string, std::vector<std::uint64_t>> out;
  std::size_t i = 0;
  for (const auto& c : tpch_columns()) {
    if (c.table != table) continue;
    EXPECT_EQ(bytes[i].size() % c.width, 0u) << c.column;
    out[std::string(c.column)] = values(bytes[i++], c.width);
  }
  return out;
}

// The message of the std::runtime_error that `parse` throws, or "" when it throws none.
template <typename F>
std::string error_of(F parse) {
  try {
    parse();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

const std::string kLineitemRow1 =
    "1|1552|93|1|17|12345.67|0.04|0.02|N|O|1992-01-02|1996-02-12|1970-01-01|DELIVER IN "
    "PERSON|TRUCK|egular courts above the|\n";
const std::string kLineitemRow2 =  // every value at the top of its width
    "4294967295|2|3|255|255|42949672.95|2.55|0.5|A|F|2149-06-06|1992-02-29|1993-10-14|NONE|"
    "AIR|x|\n";

TEST(Tpch, SchemaNamesTwentyColumnsOfTheTwoTables) {
  ASSERT_EQ(tpch_columns().size(), 20u);
  EXPECT_EQ(tpch_file_name(tpch_columns()[0]), "lineitem.orderkey.4");
  EXPECT_EQ(tpch_file_name(tpch_columns()[19]), "orders.shippriority.4");
  EXPECT_EQ(tpch_field_count("lineitem"), 16u);
  EXPECT_EQ(tpch_field_count("orders"), 9u);
  EXPECT_THROW(tpch_field_count("nation"), std::invalid_argument);
  for (const auto& c : tpch_columns()) {
    EXPECT_TRUE(c.width == 1 || c.width == 2 || c.width == 4) << c.column;
    EXPECT_LT(c.field, tpch_field_count(c.table)) << c.column;
  }
}

TEST(Tpch, ParsesHandWrittenLineitemRowsExactly) {
  auto cols = parse_columns("lineitem", kLineitemRow1 + kLineitemRow2);
  using V = std::vector<std::uint64_t>;
  EXPECT_EQ(cols["orderkey"], (V{1, 4294967295u}));
  EXPECT_EQ(cols["partkey"], (V{1552, 2}));
  EXPECT_EQ(cols["suppkey"], (V{93, 3}));
  EXPECT_EQ(cols["linenumber"], (V{1, 255}));
  EXPECT_EQ(cols["quantity"], (V{17, 255}));
  EXPECT_EQ(cols["extendedprice"], (V{1234567, 4294967295u}));  // cents
  EXPECT_EQ(cols["discount"], (V{4, 255}));                     // hundredths
  EXPECT_EQ(cols["tax"], (V{2, 50}));                           // "0.5": one fraction digit
  EXPECT_EQ(cols["returnflag"], (V{'N', 'A'}));
  EXPECT_EQ(cols["linestatus"], (V{'O', 'F'}));
  EXPECT_EQ(cols["shipdate"], (V{8036, 65535}));  // days since 1970-01-01
  EXPECT_EQ(cols["commitdate"], (V{9538, 8094}));
  EXPECT_EQ(cols["receiptdate"], (V{0, 8687}));
  EXPECT_EQ(cols.size(), 13u);
  // Little-endian bytes of the natural width.
  const auto bytes = parse_tbl("lineitem", kLineitemRow1);
  EXPECT_EQ(bytes[5], (std::vector<std::uint8_t>{0x87, 0xD6, 0x12, 0x00}));  // 1234567
  EXPECT_EQ(bytes[10], (std::vector<std::uint8_t>{0x64, 0x1F}));             // 8036
}

TEST(Tpch, ParsesHandWrittenOrdersRowsExactly) {
  auto cols = parse_columns(
      "orders",
      "3|1234|F|205654.30|1993-10-14|5-LOW|Clerk#000000955|0|sly final accounts boost|\n"
      "7|39136|O|252004.18|1996-01-10|2-HIGH|Clerk#000000470|7|ly special requests |\n");
  using V = std::vector<std::uint64_t>;
  EXPECT_EQ(cols["orderkey"], (V{3, 7}));
  EXPECT_EQ(cols["custkey"], (V{1234, 39136}));
  EXPECT_EQ(cols["orderstatus"], (V{'F', 'O'}));
  EXPECT_EQ(cols["totalprice"], (V{20565430, 25200418}));
  EXPECT_EQ(cols["orderdate"], (V{8687, 9505}));
  EXPECT_EQ(cols["orderpriority"], (V{5, 2}));
  EXPECT_EQ(cols["shippriority"], (V{0, 7}));
}

// Text split anywhere (here: every byte on its own) parses as the whole.
TEST(Tpch, FeedingInPiecesEqualsFeedingTheWhole) {
  const std::string text = kLineitemRow1 + kLineitemRow2 + kLineitemRow1;
  const auto whole = parse_tbl("lineitem", text);
  std::vector<std::vector<std::uint8_t>> pieces(whole.size());
  TblParser parser("lineitem", [&](std::size_t column, std::span<const std::uint8_t> bytes) {
    pieces[column].insert(pieces[column].end(), bytes.begin(), bytes.end());
  });
  for (char c : text) parser.feed(std::string_view(&c, 1));
  parser.finish();
  EXPECT_EQ(parser.rows(), 3u);
  EXPECT_EQ(pieces, whole);
}

TEST(Tpch, MalformedRowsAreClearErrorsNamingRowAndColumn) {
  auto lineitem_error = [](const std::string& text) {
    return error_of([&] { parse_tbl("lineitem", text); });
  };
  std::string e = lineitem_error(kLineitemRow1 + "1|2|3|\n");
  EXPECT_TRUE(contains(e, "lineitem row 2")) << e;
  EXPECT_TRUE(contains(e, "3 fields, expected 16")) << e;
  EXPECT_TRUE(contains(e, "linenumber")) << e;  // the first column missing

  std::string row = kLineitemRow1;
  row.replace(row.find("|17|"), 4, "|256|");
  e = lineitem_error(kLineitemRow1 + kLineitemRow2 + row);
  EXPECT_TRUE(contains(e, "lineitem row 3, column quantity")) << e;
  EXPECT_TRUE(contains(e, "'256'")) << e;
  EXPECT_TRUE(contains(e, "does not fit 1 byte")) << e;

  e = lineitem_error("4294967296" + kLineitemRow1.substr(1));
  EXPECT_TRUE(contains(e, "row 1, column orderkey")) << e;
  EXPECT_TRUE(contains(e, "does not fit 4 bytes")) << e;

  const std::vector<std::pair<std::string, std::string>> bad_values = {
      {"12345.67", "12345.678"},
      {"12345.67", "-1.00"},
      {"12345.67", "1e3"},
      {"0.04", "0.04x"},
      {"1992-01-02", "1992-02-30"},
      {"1992-01-02", "1969-12-31"},
      {"1992-01-02", "92-01-02"},
      {"|N|", "|NN|"},
      {"|1552|", "||"},
  };
  for (const auto& [good, bad] : bad_values) {
    std::string r = kLineitemRow1;
    r.replace(r.find(good), good.size(), bad);
    e = lineitem_error(r);
    EXPECT_TRUE(contains(e, "lineitem row 1, column ")) << bad << ": " << e;
    EXPECT_TRUE(contains(e, "value '")) << bad << ": " << e;
  }
  e = lineitem_error(kLineitemRow1.substr(0, kLineitemRow1.size() - 1) + "extra|\n");
  EXPECT_TRUE(contains(e, "more than 16")) << e;
  e = lineitem_error(kLineitemRow1 + kLineitemRow2.substr(0, 20));
  EXPECT_TRUE(contains(e, "row 2")) << e;
  EXPECT_TRUE(contains(e, "ends within the row")) << e;
  e = error_of([] { parse_tbl("orders", "3|1234|F|1.00|1993-10-14|LOW|c|0|x|\n"); });
  EXPECT_TRUE(contains(e, "orders row 1, column orderpriority")) << e;
}

// The test that CI relies on: tpchgen-cli (installed by scripts/install-deps.sh) generates
// SF 0.01 into an empty cache, every column matches the manifest's digest, and the next fetch
// is served from the cache.
TEST(Tpch, GeneratesScaleFactorPointZeroOneMatchingTheManifest) {
  ::unsetenv("GCBENCH_TPCHGEN");
  TempTree t;
  FetchOptions o;
  o.cache_dir = t.path() / "cache";
  o.allow_download = false;  // generation is local: not a download
  const Manifest m = load_manifest();
  const FetchResult r = fetch(m, "tpch-sf0.01", o);
  for (const auto& x : r.missing) ADD_FAILURE() << x.entry.name << ": " << x.reason;
  ASSERT_EQ(r.present.size(), 20u);
  for (const auto& p : r.present) {
    EXPECT_EQ(p.path, o.cache_dir / "tpch-sf0.01" / p.entry.name);
    EXPECT_EQ(fs::file_size(p.path), p.entry.size.value()) << p.path;
    EXPECT_EQ(sha256_file_hex(p.path), p.entry.sha256.value()) << p.path;
  }
  for (const auto& e : fs::recursive_directory_iterator(o.cache_dir)) {
    EXPECT_FALSE(contains(e.path().filename().string(), ".tmp")) << e.path();
  }

  // From the cache now, and from a mirror holding tpch-sf0.01/ (used in place): no generator.
  ::setenv("GCBENCH_TPCHGEN", (t.path() / "no-such-program").c_str(), 1);
  const FetchResult cached = fetch(m, "tpch-sf0.01", o);
  FetchOptions mirrored;
  mirrored.mirrors = {o.cache_dir};
  mirrored.cache_dir = t.path() / "other-cache";
  const FetchResult from_mirror = fetch(m, "tpch-sf0.01", mirrored);
  ::unsetenv("GCBENCH_TPCHGEN");
  EXPECT_EQ(cached.present.size(), 20u);
  ASSERT_EQ(from_mirror.present.size(), 20u);
  EXPECT_EQ(from_mirror.present[0].path.parent_path(), o.cache_dir / "tpch-sf0.01");
}

TEST(Tpch, AMissingGeneratorMakesEveryFileMissingWithTheReason) {
  TempTree t;
  FetchOptions o;
  o.cache_dir = t.path() / "cache";
  const std::string program = (t.path() / "no-such-tpchgen").string();
  ::setenv("GCBENCH_TPCHGEN", program.c_str(), 1);
  const FetchResult r = fetch(load_manifest(), "tpch-sf1", o);
  ::unsetenv("GCBENCH_TPCHGEN");
  EXPECT_TRUE(r.present.empty());
  ASSERT_EQ(r.missing.size(), 20u);
  for (const auto& x : r.missing) {
    EXPECT_TRUE(contains(x.reason, program + " (named by GCBENCH_TPCHGEN) not found")) << x.reason;
    EXPECT_TRUE(contains(x.reason, "pip install tpchgen-cli==4.0.0")) << x.reason;
  }
  for (const auto& e : fs::recursive_directory_iterator(o.cache_dir)) {
    ADD_FAILURE() << "left behind: " << e.path();
  }
}

// A generator that fails, or prints rows the parser rejects: every file missing, nothing
// installed.
TEST(Tpch, AFailingGeneratorMakesEveryFileMissingWithTheReason) {
  TempTree t;
  const fs::path script = t.path() / "fake-tpchgen";
  write_text(script, "#!/bin/sh\necho 'it broke' >&2\nexit 3\n");
  fs::permissions(script, fs::perms::owner_all);
  const fs::path garbage = t.path() / "garbage-tpchgen";
  write_text(garbage, "#!/bin/sh\necho '1|2|3|'\n");
  fs::permissions(garbage, fs::perms::owner_all);
  FetchOptions o;
  o.cache_dir = t.path() / "cache";
  const Manifest m = load_manifest();
  ::setenv("GCBENCH_TPCHGEN", script.c_str(), 1);
  const FetchResult failed = fetch(m, "tpch-sf0.01", o);
  ::setenv("GCBENCH_TPCHGEN", garbage.c_str(), 1);
  const FetchResult rejected = fetch(m, "tpch-sf0.01", o);
  ::unsetenv("GCBENCH_TPCHGEN");
  ASSERT_EQ(failed.missing.size(), 20u);
  for (const auto& x : failed.missing) {
    EXPECT_TRUE(contains(x.reason, "exit code 3): it broke")) << x.reason;
  }
  ASSERT_EQ(rejected.missing.size(), 20u);
  for (const auto& x : rejected.missing) {
    EXPECT_TRUE(contains(x.reason, "lineitem row 1: 3 fields, expected 16")) << x.reason;
  }
  for (const auto& e : fs::recursive_directory_iterator(o.cache_dir)) {
    EXPECT_FALSE(e.is_regular_file()) << "left behind: " << e.path();
  }
}

// A digest the generator's output does not match says what generated it and that the manifest
// pins another version's output; the other files are installed.
TEST(Tpch, ADigestMismatchNamesTheGeneratorAndThePinnedVersion) {
  ::unsetenv("GCBENCH_TPCHGEN");
  TempTree t;
  std::string files;
  for (const auto& f : load_manifest().files_of("tpch-sf0.01")) {
    std::string digest = *f.sha256;
    if (f.name == "orders.totalprice.4") digest = std::string(64, '0');
    if (!files.empty()) files += ",";
    files += R"({"name": ")" + f.name + R"(", "size": )" + std::to_string(*f.size) +
             R"(, "sha256": ")" + digest + R"(", "element_width": )" +
             std::to_string(*f.element_width) + "}";
  }
  write_text(t.path() / "m.json",
             R"({"schema": 1, "corpora": [{"name": "tpch-sf0.01", "generator": )"
             R"({"program": "tpchgen-cli", "version": "4.0.0", "scale_factor": "0.01"}, )"
             R"("files": [)" +
                 files + "]}]}");
  FetchOptions o;
  o.cache_dir = t.path() / "cache";
  const FetchResult r = fetch(load_manifest(t.path() / "m.json"), "tpch-sf0.01", o);
  EXPECT_EQ(r.present.size(), 19u);
  ASSERT_EQ(r.missing.size(), 1u);
  const std::string& reason = r.missing[0].reason;
  EXPECT_EQ(r.missing[0].entry.name, "orders.totalprice.4");
  EXPECT_TRUE(contains(reason,
                       "generated by tpchgen-cli 4.0.0 at scale factor 0.01: sha256 "
                       "mismatch"))
      << reason;
  EXPECT_TRUE(contains(reason, "the manifest pins version 4.0.0's")) << reason;
  EXPECT_FALSE(fs::exists(o.cache_dir / "tpch-sf0.01" / "orders.totalprice.4"));
}

}  // namespace
