#include "io/npz.h"

#include <array>
#include <cstdint>
#include <limits>

#include "io/file_io.h"
#include "io/inflate.h"
#include "io/npy.h"

namespace twinrt::io {
namespace {

constexpr uint32_t kLocalHeaderSignature = 0x04034b50;
constexpr uint32_t kCentralHeaderSignature = 0x02014b50;
constexpr uint32_t kEndOfCentralDirSignature = 0x06054b50;
constexpr uint32_t kZip64EndSignature = 0x06064b50;
constexpr uint32_t kZip64LocatorSignature = 0x07064b50;
constexpr uint16_t kZip64ExtraId = 0x0001;
constexpr size_t kEndOfCentralDirSize = 22;
constexpr size_t kCentralHeaderSize = 46;
constexpr size_t kLocalHeaderSize = 30;

// Little-endian reads that fail instead of reading past the end.
class ByteView {
 public:
  ByteView(std::string_view bytes, std::string source) : b_(bytes), source_(std::move(source)) {}

  Result<uint64_t> uint(size_t offset, size_t width) const {
    if (offset > b_.size() || b_.size() - offset < width) return truncated(offset);
    uint64_t v = 0;
    for (size_t i = 0; i < width; ++i) v |= uint64_t{static_cast<uint8_t>(b_[offset + i])} << (8 * i);
    return v;
  }
  Result<std::string_view> slice(uint64_t offset, uint64_t size) const {
    if (offset > b_.size() || b_.size() - offset < size) return truncated(offset);
    return b_.substr(offset, size);
  }
  size_t size() const { return b_.size(); }
  Status error(const std::string& what) const { return invalid_argument(source_ + ": " + what); }

 private:
  Status truncated(uint64_t offset) const {
    return error("truncated or corrupt zip archive (record at byte " + std::to_string(offset) + ")");
  }
  std::string_view b_;
  std::string source_;
};

struct CentralDirectory {
  uint64_t entries = 0;
  uint64_t offset = 0;
};

Result<CentralDirectory> find_central_directory(const ByteView& zip) {
  if (zip.size() < kEndOfCentralDirSize) return zip.error("not a zip archive (too short)");
  // The end record sits at the end, before a comment of up to 65535 bytes.
  const size_t lowest = zip.size() > kEndOfCentralDirSize + 0xffff ? zip.size() - kEndOfCentralDirSize - 0xffff : 0;
  for (size_t pos = zip.size() - kEndOfCentralDirSize + 1; pos-- > lowest;) {
    ASSIGN_OR_RETURN(uint64_t sig, zip.uint(pos, 4));
    if (sig != kEndOfCentralDirSignature) continue;
    ASSIGN_OR_RETURN(uint64_t disk, zip.uint(pos + 4, 2));
    ASSIGN_OR_RETURN(uint64_t cd_disk, zip.uint(pos + 6, 2));
    CentralDirectory cd;
    ASSIGN_OR_RETURN(cd.entries, zip.uint(pos + 10, 2));
    ASSIGN_OR_RETURN(cd.offset, zip.uint(pos + 16, 4));
    const bool zip64 = cd.entries == 0xffff || cd.offset == 0xffffffff;
    if (zip64) {
      if (pos < 20) return zip.error("zip64 end record locator missing");
      ASSIGN_OR_RETURN(uint64_t loc_sig, zip.uint(pos - 20, 4));
      if (loc_sig != kZip64LocatorSignature) return zip.error("zip64 end record locator missing");
      ASSIGN_OR_RETURN(uint64_t end64, zip.uint(pos - 20 + 8, 8));
      ASSIGN_OR_RETURN(uint64_t sig64, zip.uint(end64, 4));
      if (sig64 != kZip64EndSignature) return zip.error("bad zip64 end record");
      ASSIGN_OR_RETURN(cd.entries, zip.uint(end64 + 32, 8));
      ASSIGN_OR_RETURN(cd.offset, zip.uint(end64 + 48, 8));
    } else if (disk != 0 || cd_disk != 0) {
      return zip.error("multi-disk zip archives are not supported");
    }
    return cd;
  }
  return zip.error("not a zip archive (no end of central directory record)");
}

struct Member {
  std::string name;
  uint16_t flags = 0;
  uint16_t method = 0;
  uint32_t crc = 0;
  uint64_t compressed_size = 0;
  uint64_t size = 0;
  uint64_t local_offset = 0;
};

// Replaces 0xffffffff sizes/offset with the values of the zip64 extra field, which
// holds (in this order) only those that overflowed.
Status apply_zip64_extra(const ByteView& zip, uint64_t extra_at, uint64_t extra_len, Member& m) {
  uint64_t pos = extra_at;
  while (pos + 4 <= extra_at + extra_len) {
    ASSIGN_OR_RETURN(uint64_t id, zip.uint(pos, 2));
    ASSIGN_OR_RETURN(uint64_t len, zip.uint(pos + 2, 2));
    uint64_t field = pos + 4;
    if (id == kZip64ExtraId) {
      for (uint64_t* v : {&m.size, &m.compressed_size, &m.local_offset}) {
        if (*v != 0xffffffff) continue;
        if (field + 8 > pos + 4 + len) return zip.error("member '" + m.name + "': short zip64 extra field");
        ASSIGN_OR_RETURN(*v, zip.uint(field, 8));
        field += 8;
      }
    }
    pos += 4 + len;
  }
  return Status::ok();
}

Result<Member> read_central_header(const ByteView& zip, uint64_t& pos) {
  ASSIGN_OR_RETURN(uint64_t sig, zip.uint(pos, 4));
  if (sig != kCentralHeaderSignature) return zip.error("bad central directory entry at byte " + std::to_string(pos));
  Member m;
  ASSIGN_OR_RETURN(uint64_t flags, zip.uint(pos + 8, 2));
  ASSIGN_OR_RETURN(uint64_t method, zip.uint(pos + 10, 2));
  ASSIGN_OR_RETURN(uint64_t crc, zip.uint(pos + 16, 4));
  ASSIGN_OR_RETURN(m.compressed_size, zip.uint(pos + 20, 4));
  ASSIGN_OR_RETURN(m.size, zip.uint(pos + 24, 4));
  ASSIGN_OR_RETURN(uint64_t name_len, zip.uint(pos + 28, 2));
  ASSIGN_OR_RETURN(uint64_t extra_len, zip.uint(pos + 30, 2));
  ASSIGN_OR_RETURN(uint64_t comment_len, zip.uint(pos + 32, 2));
  ASSIGN_OR_RETURN(m.local_offset, zip.uint(pos + 42, 4));
  ASSIGN_OR_RETURN(std::string_view name, zip.slice(pos + kCentralHeaderSize, name_len));
  m.flags = static_cast<uint16_t>(flags);
  m.method = static_cast<uint16_t>(method);
  m.crc = static_cast<uint32_t>(crc);
  m.name = std::string(name);
  TRY(apply_zip64_extra(zip, pos + kCentralHeaderSize + name_len, extra_len, m));
  pos += kCentralHeaderSize + name_len + extra_len + comment_len;
  return m;
}

Result<std::string> member_bytes(const ByteView& zip, const Member& m) {
  const std::string what = "member '" + m.name + "'";
  if (m.flags & 1) return zip.error(what + " is encrypted");
  ASSIGN_OR_RETURN(uint64_t sig, zip.uint(m.local_offset, 4));
  if (sig != kLocalHeaderSignature) return zip.error(what + ": bad local header");
  ASSIGN_OR_RETURN(uint64_t name_len, zip.uint(m.local_offset + 26, 2));
  ASSIGN_OR_RETURN(uint64_t extra_len, zip.uint(m.local_offset + 28, 2));
  ASSIGN_OR_RETURN(std::string_view data,
                   zip.slice(m.local_offset + kLocalHeaderSize + name_len + extra_len, m.compressed_size));
  std::string out;
  if (m.method == 0) {
    if (m.compressed_size != m.size) return zip.error(what + ": stored sizes disagree");
    out = std::string(data);
  } else if (m.method == 8) {
    if (m.size > std::numeric_limits<size_t>::max() / 2) return zip.error(what + ": too large");
    auto inflated = inflate_raw(data, static_cast<size_t>(m.size));
    if (!inflated) return zip.error(what + ": " + inflated.status().message());
    out = std::move(inflated).value();
  } else {
    return zip.error(what + ": compression method " + std::to_string(m.method) +
                     " is not supported (only stored and deflate)");
  }
  if (crc32(out) != m.crc) return zip.error(what + ": CRC-32 mismatch (corrupt archive)");
  return out;
}

}  // namespace

uint32_t crc32(std::string_view bytes) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t c = 0xffffffffu;
  for (char ch : bytes) c = table[(c ^ static_cast<uint8_t>(ch)) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

Result<std::vector<NpzMember>> parse_npz(std::string_view bytes, const std::string& source,
                                         const ResourceLimits& limits) {
  const ByteView zip(bytes, source);
  ASSIGN_OR_RETURN(CentralDirectory cd, find_central_directory(zip));
  // Each entry takes at least 46 bytes: a hostile count cannot make us loop for long.
  if (cd.entries > zip.size() / kCentralHeaderSize) return zip.error("central directory entry count is corrupt");
  std::vector<Member> directory;
  uint64_t pos = cd.offset, declared = 0;
  for (uint64_t i = 0; i < cd.entries; ++i) {
    ASSIGN_OR_RETURN(Member m, read_central_header(zip, pos));
    if (m.name.size() < 4 || m.name.compare(m.name.size() - 4, 4, ".npy") != 0)
      return zip.error("member '" + m.name + "' is not a .npy file");
    const std::string what = "'" + source + ":" + m.name + "'";
    TRY(check_tensor_bytes(m.size, what, limits));
    TRY(check_memory_bytes(declared, m.size, what, limits));
    declared += m.size;
    directory.push_back(std::move(m));
  }
  std::vector<NpzMember> members;
  for (const Member& m : directory) {
    ASSIGN_OR_RETURN(std::string npy, member_bytes(zip, m));
    ASSIGN_OR_RETURN(Tensor t, parse_npy(npy, source + ":" + m.name));
    members.push_back(NpzMember{m.name.substr(0, m.name.size() - 4), std::move(t)});
  }
  return members;
}

Result<std::vector<NpzMember>> read_npz_file(const std::string& path, const ResourceLimits& limits) {
  ASSIGN_OR_RETURN(std::string bytes, read_file_bytes(path, {0, limits.max_memory_bytes}));
  return parse_npz(bytes, path, limits);
}

}  // namespace twinrt::io
