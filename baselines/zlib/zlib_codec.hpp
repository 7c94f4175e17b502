#pragma once
#include "gcbench/codec.hpp"

namespace gcbench::zlib {
// zlib deflate; its "container" is a gzip member identical in size to `gzip -<level> -n`.
CodecPtr make_codec();
}  // namespace gcbench::zlib
