#include "io/inflate.h"

#include <array>
#include <cstdint>

namespace twinrt::io {
namespace {

constexpr int kMaxCodeBits = 15;
constexpr int kLiteralLengthSymbols = 288;
constexpr int kDistanceSymbols = 32;
constexpr int kCodeLengthSymbols = 19;

Status corrupt(const std::string& what) { return invalid_argument("corrupt deflate stream: " + what); }

// Reads bits least-significant first, as DEFLATE packs them.
class BitReader {
 public:
  explicit BitReader(std::string_view in) : in_(in) {}

  Result<uint32_t> bits(int count) {
    uint32_t v = 0;
    for (int i = 0; i < count; ++i) {
      if (pos_ >= in_.size()) return corrupt("unexpected end of data");
      const uint32_t bit = (static_cast<uint8_t>(in_[pos_]) >> bit_) & 1u;
      v |= bit << i;
      if (++bit_ == 8) {
        bit_ = 0;
        ++pos_;
      }
    }
    return v;
  }
  void align_to_byte() {
    if (bit_ != 0) {
      bit_ = 0;
      ++pos_;
    }
  }
  // Bytes at the current (byte-aligned) position.
  Result<std::string_view> bytes(size_t n) {
    if (in_.size() - pos_ < n) return corrupt("stored block runs past the end of data");
    std::string_view out = in_.substr(pos_, n);
    pos_ += n;
    return out;
  }

 private:
  std::string_view in_;
  size_t pos_ = 0;
  int bit_ = 0;
};

// A canonical Huffman code: how many codes have each length, and the symbols in code order.
class Huffman {
 public:
  Status build(const uint8_t* lengths, int num_symbols) {
    counts_.fill(0);
    for (int s = 0; s < num_symbols; ++s) ++counts_[lengths[s]];
    counts_[0] = 0;
    // Reject over-subscribed codes (more codes of a length than the tree has room for).
    int available = 1;
    for (int len = 1; len <= kMaxCodeBits; ++len) {
      available = available * 2 - counts_[len];
      if (available < 0) return corrupt("over-subscribed Huffman code");
    }
    std::array<int, kMaxCodeBits + 2> first_index{};
    for (int len = 1; len <= kMaxCodeBits; ++len) first_index[len + 1] = first_index[len] + counts_[len];
    for (int s = 0; s < num_symbols; ++s)
      if (lengths[s] != 0) symbols_[first_index[lengths[s]]++] = static_cast<uint16_t>(s);
    return Status::ok();
  }

  // Reads one symbol: codes of each length are consecutive integers, starting where the
  // previous length's codes ended (shifted left by one).
  Result<int> decode(BitReader& in) const {
    int code = 0, first = 0, index = 0;
    for (int len = 1; len <= kMaxCodeBits; ++len) {
      ASSIGN_OR_RETURN(uint32_t bit, in.bits(1));
      code |= static_cast<int>(bit);
      const int count = counts_[len];
      if (code - first < count) return static_cast<int>(symbols_[index + code - first]);
      index += count;
      first = (first + count) << 1;
      code <<= 1;
    }
    return corrupt("invalid Huffman code");
  }

 private:
  std::array<int, kMaxCodeBits + 1> counts_{};
  std::array<uint16_t, kLiteralLengthSymbols> symbols_{};
};

constexpr uint16_t kLengthBase[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                      31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr uint8_t kLengthExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr uint16_t kDistanceBase[30] = {1,   2,   3,   4,   5,   7,    9,    13,   17,   25,
                                        33,  49,  65,  97,  129, 193,  257,  385,  513,  769,
                                        1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr uint8_t kDistanceExtra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                        6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

class Inflater {
 public:
  Inflater(std::string_view in, size_t expected) : in_(in), expected_(expected) { out_.reserve(expected); }

  Result<std::string> run() {
    for (bool last = false; !last;) {
      ASSIGN_OR_RETURN(uint32_t final_bit, in_.bits(1));
      ASSIGN_OR_RETURN(uint32_t type, in_.bits(2));
      last = final_bit != 0;
      if (type == 0) TRY(stored_block());
      else if (type == 1) TRY(fixed_block());
      else if (type == 2) TRY(dynamic_block());
      else return corrupt("reserved block type 3");
    }
    if (out_.size() != expected_)
      return corrupt("inflated to " + std::to_string(out_.size()) + " bytes, expected " + std::to_string(expected_));
    return std::move(out_);
  }

 private:
  Status emit_check(size_t n) const {
    if (expected_ - out_.size() < n) return corrupt("inflates to more than the declared " + std::to_string(expected_) + " bytes");
    return Status::ok();
  }

  Status stored_block() {
    in_.align_to_byte();
    ASSIGN_OR_RETURN(uint32_t len, in_.bits(16));
    ASSIGN_OR_RETURN(uint32_t nlen, in_.bits(16));
    if ((len ^ 0xffffu) != nlen) return corrupt("stored block length check failed");
    TRY(emit_check(len));
    ASSIGN_OR_RETURN(std::string_view data, in_.bytes(len));
    out_.append(data);
    return Status::ok();
  }

  Status fixed_block() {
    std::array<uint8_t, kLiteralLengthSymbols + kDistanceSymbols> lengths{};
    for (int s = 0; s < kLiteralLengthSymbols; ++s) lengths[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
    for (int s = 0; s < kDistanceSymbols; ++s) lengths[kLiteralLengthSymbols + s] = 5;
    Huffman literal, distance;
    TRY(literal.build(lengths.data(), kLiteralLengthSymbols));
    TRY(distance.build(lengths.data() + kLiteralLengthSymbols, kDistanceSymbols));
    return codes(literal, distance);
  }

  Status dynamic_block() {
    ASSIGN_OR_RETURN(uint32_t hlit, in_.bits(5));
    ASSIGN_OR_RETURN(uint32_t hdist, in_.bits(5));
    ASSIGN_OR_RETURN(uint32_t hclen, in_.bits(4));
    const int num_literal = static_cast<int>(hlit) + 257, num_distance = static_cast<int>(hdist) + 1;
    if (num_literal > 286 || num_distance > 30) return corrupt("too many length or distance codes");
    static constexpr uint8_t kOrder[kCodeLengthSymbols] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5,
                                                           11, 4,  12, 3, 13, 2, 14, 1, 15};
    std::array<uint8_t, kCodeLengthSymbols> code_length_lengths{};
    for (uint32_t i = 0; i < hclen + 4; ++i) {
      ASSIGN_OR_RETURN(uint32_t len, in_.bits(3));
      code_length_lengths[kOrder[i]] = static_cast<uint8_t>(len);
    }
    Huffman code_length_code;
    TRY(code_length_code.build(code_length_lengths.data(), kCodeLengthSymbols));

    std::array<uint8_t, kLiteralLengthSymbols + kDistanceSymbols> lengths{};
    int n = 0;
    while (n < num_literal + num_distance) {
      ASSIGN_OR_RETURN(int sym, code_length_code.decode(in_));
      if (sym < 16) {
        lengths[n++] = static_cast<uint8_t>(sym);
        continue;
      }
      uint8_t value = 0;
      uint32_t repeat = 0;
      if (sym == 16) {
        if (n == 0) return corrupt("length repeat with no previous length");
        value = lengths[n - 1];
        ASSIGN_OR_RETURN(repeat, in_.bits(2));
        repeat += 3;
      } else if (sym == 17) {
        ASSIGN_OR_RETURN(repeat, in_.bits(3));
        repeat += 3;
      } else {
        ASSIGN_OR_RETURN(repeat, in_.bits(7));
        repeat += 11;
      }
      if (n + static_cast<int>(repeat) > num_literal + num_distance) return corrupt("code lengths overflow");
      for (uint32_t r = 0; r < repeat; ++r) lengths[n++] = value;
    }
    if (lengths[256] == 0) return corrupt("no end-of-block code");
    Huffman literal, distance;
    TRY(literal.build(lengths.data(), num_literal));
    TRY(distance.build(lengths.data() + num_literal, num_distance));
    return codes(literal, distance);
  }

  Status codes(const Huffman& literal, const Huffman& distance) {
    for (;;) {
      ASSIGN_OR_RETURN(int sym, literal.decode(in_));
      if (sym < 256) {
        TRY(emit_check(1));
        out_ += static_cast<char>(sym);
        continue;
      }
      if (sym == 256) return Status::ok();
      sym -= 257;
      if (sym >= 29) return corrupt("invalid length symbol");
      ASSIGN_OR_RETURN(uint32_t extra, in_.bits(kLengthExtra[sym]));
      const size_t length = kLengthBase[sym] + extra;
      ASSIGN_OR_RETURN(int dsym, distance.decode(in_));
      if (dsym >= 30) return corrupt("invalid distance symbol");
      ASSIGN_OR_RETURN(uint32_t dextra, in_.bits(kDistanceExtra[dsym]));
      const size_t dist = kDistanceBase[dsym] + dextra;
      if (dist > out_.size()) return corrupt("distance reaches before the start of the data");
      TRY(emit_check(length));
      // Byte by byte: a copy may overlap the bytes it produces (runs).
      const size_t from = out_.size() - dist;
      for (size_t i = 0; i < length; ++i) out_ += out_[from + i];
    }
  }

  BitReader in_;
  size_t expected_;
  std::string out_;
};

}  // namespace

Result<std::string> inflate_raw(std::string_view compressed, size_t expected_size) {
  // DEFLATE cannot expand data more than 1032:1 (258-byte matches coded in 2 bits); a
  // larger declared size is a lie that must not turn into a huge allocation.
  constexpr size_t kMaxRatio = 1032;
  if (expected_size / kMaxRatio > compressed.size() + 1)
    return corrupt("declared size " + std::to_string(expected_size) + " is impossible for " +
                   std::to_string(compressed.size()) + " compressed bytes");
  return Inflater(compressed, expected_size).run();
}

}  // namespace twinrt::io
