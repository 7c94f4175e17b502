#include "studies/study.hpp"

namespace gcbench::studies {

// A first look: every codec at its default parameters on the first file of each corpus.
Study quick_study() {
  return Study{"quick",
               driver::Preset{"quick",
                              "every codec at its default parameters on the first file "
                              "of each corpus, compressed and decompressed: a first "
                              "look (about a minute on one GPU)",
                              kStandardCorpora,
                              {{"every codec, default parameters", {}, true, 0, {"all"}}}}};
}

}  // namespace gcbench::studies
