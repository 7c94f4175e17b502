#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "gcbench/container.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/params.hpp"

namespace gcbench {
namespace {

const Bytes kOriginal = {'h', 'e', 'l', 'l', 'o'};
const Bytes kPayload = {1, 2, 3};
// Formats of this test's own, apart from any codec's.
constexpr ContainerFormat kFormat{2, "test-format"};
constexpr ContainerFormat kOtherFormat{3, "test-other-format"};

TEST(Container, HeaderLayoutIsPinned) {
  Bytes c = wrap_container(kFormat, kOriginal, kPayload);
  ASSERT_EQ(c.size(), kContainerHeaderSize + kPayload.size());
  EXPECT_EQ(std::string(c.begin(), c.begin() + 4), "GCBC");
  EXPECT_EQ(load_le<std::uint16_t>(&c[4]), 1);
  EXPECT_EQ(load_le<std::uint16_t>(&c[6]), 2);
  EXPECT_EQ(load_le<std::uint64_t>(&c[8]), 5u);
  EXPECT_EQ(load_le<std::uint64_t>(&c[16]), 3u);
  EXPECT_EQ(load_le<std::uint32_t>(&c[24]), 0x3610a686u);  // CRC-32 of "hello"
}

// A payload_buffer is framed in place: the container is the payload's own buffer, with the
// bytes wrap_container(ByteSpan) writes.
TEST(Container, PayloadBufferIsFramedInPlace) {
  Bytes payload = payload_buffer(kPayload.size());
  std::copy(kPayload.begin(), kPayload.end(), payload.begin());
  const std::uint8_t* buffer = payload.data();
  const Bytes framed = wrap_container(kFormat, kOriginal, std::move(payload));
  EXPECT_EQ(framed.data(), buffer);
  EXPECT_EQ(framed, wrap_container(kFormat, kOriginal, kPayload));
  EXPECT_EQ(wrap_container(kFormat, kOriginal, Bytes(kPayload)), framed);  // no room: a copy
}

TEST(Container, OpensWhatItWrote) {
  Bytes c = wrap_container(kFormat, kOriginal, kPayload);
  auto opened = open_container(c, kFormat);
  EXPECT_EQ(opened.header.original_size, kOriginal.size());
  EXPECT_EQ(Bytes(opened.payload.begin(), opened.payload.end()), kPayload);
  EXPECT_NO_THROW(verify_original(opened.header, kOriginal));
}

TEST(Container, RejectsWrongCodec) {
  Bytes c = wrap_container(kFormat, kOriginal, kPayload);
  EXPECT_THROW(open_container(c, kOtherFormat), DecodeError);
}

TEST(Container, RejectsEveryTruncation) {
  Bytes c = wrap_container(kFormat, kOriginal, kPayload);
  for (std::size_t n = 0; n < c.size(); ++n) {
    EXPECT_THROW(open_container(ByteSpan(c.data(), n), kFormat), DecodeError) << n;
  }
}

TEST(Container, RejectsEveryHeaderByteFlip) {
  Bytes c = wrap_container(kFormat, kOriginal, kPayload);
  for (std::size_t i = 0; i < kContainerHeaderSize; ++i) {
    Bytes bad = c;
    bad[i] ^= 0x10;
    EXPECT_THROW(open_container(bad, kFormat), DecodeError) << i;
  }
}

TEST(Container, RejectsTrailingBytes) {
  Bytes c = wrap_container(kFormat, kOriginal, kPayload);
  c.push_back(0);
  EXPECT_THROW(open_container(c, kFormat), DecodeError);
}

TEST(Container, RejectsAbsurdOriginalSizeBehindValidChecksum) {
  Bytes c = make_container({kFormat.id, kMaxOriginalSize + 1, 0, 0}, kPayload);
  EXPECT_THROW(open_container(c, kFormat), DecodeError);
}

TEST(Container, VerifyCatchesWrongContent) {
  Bytes c = wrap_container(kFormat, kOriginal, kPayload);
  auto opened = open_container(c, kFormat);
  Bytes other = kOriginal;
  other[0] = 'j';
  EXPECT_THROW(verify_original(opened.header, other), DecodeError);
  other.pop_back();
  EXPECT_THROW(verify_original(opened.header, other), DecodeError);
}

TEST(Container, FormatsRegisterOnceAndNameTheirIds) {
  constexpr ContainerFormat kRegistered{0xFFF0, "test-registered"};
  EXPECT_EQ(format_name(kRegistered.id), "format 65520");
  register_container_format(kRegistered);
  EXPECT_NO_THROW(register_container_format(kRegistered));  // again, as a second codec would
  EXPECT_EQ(format_name(kRegistered.id), "test-registered");
  EXPECT_THROW(register_container_format({kRegistered.id, "test-clash"}), std::logic_error);
  EXPECT_THROW(register_container_format({0xFFF1, kRegistered.name}), std::logic_error);
  EXPECT_THROW(register_container_format({0, "test-no-id"}), std::logic_error);
  EXPECT_EQ(format_name(kRegistered.id), "test-registered");
  EXPECT_EQ(format_name(0xFFF1), "format 65521");
}

TEST(Container, WrongFormatNamesBoth) {
  Bytes c = wrap_container(kFormat, kOriginal, kPayload);
  try {
    open_container(c, kOtherFormat);
    ADD_FAILURE() << "opened as another format";
  } catch (const DecodeError& e) {
    EXPECT_STREQ(e.what(),
                 "wrong codec: container holds format 2 (id 2), expected "
                 "test-other-format (id 3)");
  }
}

AxisSpec finder_axis() {
  AxisSpec a;
  a.name = "finder";
  a.names = {"hash", "z", "brute"};
  a.allowed = {0, 1, 2};
  return a;
}

TEST(Params, DefaultsFilledAndRangesEnforced) {
  AxisSpec frame;
  frame.name = "frame_size";
  frame.default_value = 1024;
  frame.min = 1;
  frame.max = 4096;
  std::vector<AxisSpec> axes = {frame, finder_axis()};
  auto p = resolve_params(axes, {});
  EXPECT_EQ(p.at("frame_size"), 1024);
  EXPECT_EQ(p.at("finder"), 0);
  EXPECT_EQ(resolve_params(axes, {{"frame_size", 7}}).at("frame_size"), 7);
  EXPECT_THROW(resolve_params(axes, {{"frame_size", 0}}), ParamError);
  EXPECT_THROW(resolve_params(axes, {{"finder", 3}}), ParamError);
  EXPECT_THROW(resolve_params(axes, {{"nope", 1}}), ParamError);
}

TEST(Params, EnumeratedAxesParseAndFormatByName) {
  AxisSpec a = finder_axis();
  EXPECT_EQ(a.parse("brute"), 2);
  EXPECT_EQ(a.format(1), "z");
  EXPECT_THROW(a.parse("2"), ParamError);
  EXPECT_THROW(a.parse("zz"), ParamError);
  AxisSpec n;
  n.name = "level";
  n.min = 1;
  n.max = 9;
  EXPECT_EQ(n.parse("6"), 6);
  EXPECT_THROW(n.parse("6x"), ParamError);
  EXPECT_THROW(n.parse("10"), ParamError);
}

// A rejected value names what the axis accepts.
TEST(Params, ErrorsNameTheValidValues) {
  auto message = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const ParamError& e) {
      return e.what();
    }
    return "no error";
  };
  AxisSpec frame;
  frame.name = "frame_size";
  frame.min = 1;
  frame.max = 4096;
  EXPECT_EQ(message([&] { frame.parse("0"); }),
            "invalid value '0' for frame_size (an integer from 1 to 4096)");
  EXPECT_EQ(message([&] { finder_axis().parse("zz"); }),
            "invalid value 'zz' for finder (one of hash, z, brute)");
  AxisSpec width;
  width.name = "element_width";
  width.allowed = {1, 2, 4};
  EXPECT_EQ(message([&] {
              resolve_params({width}, {{"element_width", 3}});
            }),
            "parameter element_width=3 is out of range (one of 1, 2, 4)");
}

TEST(Params, ThreadCountZeroMeansAllCores) {
  EXPECT_GE(thread_count({{"threads", 0}}), 1);
  EXPECT_EQ(thread_count({{"threads", 3}}), 3);
}

}  // namespace
}  // namespace gcbench
