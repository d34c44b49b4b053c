// SHA-256 against the FIPS 180-4 / NIST example vectors.
#include <gtest/gtest.h>

#include <string>

#include "io/sha256.h"

namespace twinrt::io {
namespace {

TEST(Sha256, FipsShortMessages) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
                       "klmnopqrlmnopqrsmnopqrstnopqrstu"),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256, MillionAs) {
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, IncrementalUpdatesMatchOneShot) {
  // Split points around the 64-byte block and the 56-byte padding boundary.
  const std::string msg(200, 'x');
  const std::string whole = sha256_hex(msg);
  for (size_t split : {0, 1, 55, 56, 63, 64, 65, 119, 120, 200}) {
    Sha256 h;
    h.update(msg.substr(0, split));
    h.update(msg.substr(split));
    EXPECT_EQ(h.hex_digest(), whole) << "split at " << split;
  }
}

TEST(Sha256, MissingFileIsAnIoError) {
  auto r = sha256_file_hex("/nonexistent/twinrt/model.onnx");
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kIoError);
  EXPECT_NE(r.status().message().find("/nonexistent/twinrt/model.onnx"), std::string::npos);
}

}  // namespace
}  // namespace twinrt::io
