#include "io/npy.h"

#include <bit>
#include <cstring>

#include "io/file_io.h"
#include "io/npy_header.h"

namespace twinrt::io {
namespace {

static_assert(std::endian::native == std::endian::little,
              ".npy data is copied as-is: twinrt targets are little-endian");

constexpr std::string_view kMagic("\x93NUMPY", 6);

// NumPy type code (descr without its byte-order character) per dtype.
struct NpyType {
  DataType dtype;
  std::string_view code;
};
constexpr NpyType kNpyTypes[] = {
    {DataType::kFloat16, "f2"}, {DataType::kFloat, "f4"},     {DataType::kDouble, "f8"},
    {DataType::kInt8, "i1"},    {DataType::kInt16, "i2"},     {DataType::kInt32, "i4"},
    {DataType::kInt64, "i8"},   {DataType::kUInt8, "u1"},     {DataType::kUInt16, "u2"},
    {DataType::kUInt32, "u4"},  {DataType::kUInt64, "u8"},    {DataType::kBool, "b1"},
    {DataType::kComplex64, "c8"}, {DataType::kComplex128, "c16"},
};

Result<DataType> dtype_from_descr(const std::string& descr, const std::string& source) {
  auto unsupported = [&](const std::string& why) {
    return invalid_argument(source + ": unsupported .npy dtype '" + descr + "' (" + why + ")");
  };
  if (descr.size() < 2) return unsupported("too short");
  const char order = descr[0];
  if (order == '>') return unsupported("big-endian data; save it little-endian");
  if (order != '<' && order != '|' && order != '=') return unsupported("unknown byte order");
  const std::string_view code = std::string_view(descr).substr(1);
  for (const NpyType& t : kNpyTypes) {
    if (t.code != code) continue;
    if (order == '|' && dtype_size(t.dtype) != 1) return unsupported("'|' byte order on a multi-byte type");
    return t.dtype;
  }
  return unsupported("expected a numeric or bool type such as <f4, <i8, |b1");
}

uint32_t read_le(std::string_view bytes, size_t offset, size_t width) {
  uint32_t v = 0;
  for (size_t i = 0; i < width; ++i) v |= uint32_t{static_cast<uint8_t>(bytes[offset + i])} << (8 * i);
  return v;
}

void append_le(std::string& out, uint32_t v, size_t width) {
  for (size_t i = 0; i < width; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}

}  // namespace

std::string npy_descr(DataType dtype) {
  for (const NpyType& t : kNpyTypes)
    if (t.dtype == dtype) return (dtype_size(dtype) == 1 ? "|" : "<") + std::string(t.code);
  return "";
}

Result<Tensor> parse_npy(std::string_view bytes, const std::string& source) {
  if (bytes.size() < 10 || bytes.substr(0, 6) != kMagic)
    return invalid_argument(source + ": not a .npy file (missing \\x93NUMPY magic)");
  const int major = static_cast<uint8_t>(bytes[6]);
  if (major < 1 || major > 3)
    return invalid_argument(source + ": unsupported .npy format version " + std::to_string(major));
  const size_t length_width = major == 1 ? 2 : 4;
  const size_t header_start = 8 + length_width;
  if (bytes.size() < header_start) return invalid_argument(source + ": truncated .npy header");
  const size_t header_len = read_le(bytes, 8, length_width);
  if (bytes.size() - header_start < header_len)
    return invalid_argument(source + ": truncated .npy header (needs " + std::to_string(header_len) +
                            " bytes, file has " + std::to_string(bytes.size() - header_start) + ")");
  auto header = parse_npy_header(bytes.substr(header_start, header_len));
  if (!header) return header.status().with_context(source + ": ");
  ASSIGN_OR_RETURN(DataType dtype, dtype_from_descr(header->descr, source));
  const int64_t numel = shape_numel(header->shape);
  const bool multi_dim = [&] {
    int non_trivial = 0;
    for (int64_t d : header->shape) non_trivial += d > 1;
    return non_trivial > 1;
  }();
  // A Fortran-order array with at most one non-trivial axis has the same bytes as C order.
  if (header->fortran_order && multi_dim)
    return invalid_argument(source + ": fortran_order arrays are not supported; save with "
                            "np.ascontiguousarray(a)");
  if (numel < 0) return invalid_argument(source + ": shape " + shape_to_string(header->shape) + " is too large");
  // Compare sizes before allocating: a hostile header may claim a huge shape.
  const std::string_view data = bytes.substr(header_start + header_len);
  const size_t item = dtype_size(dtype);
  const bool size_matches = static_cast<uint64_t>(numel) <= data.size() / item &&
                            static_cast<size_t>(numel) * item == data.size();
  if (!size_matches) {
    const bool truncated = static_cast<uint64_t>(numel) > data.size() / item;
    return invalid_argument(source + ": " + (truncated ? "truncated" : "trailing bytes") + ": shape " +
                            shape_to_string(header->shape) + " of " + dtype_name(dtype) + " needs " +
                            std::to_string(numel) + " x " + std::to_string(item) + " data bytes, file has " +
                            std::to_string(data.size()));
  }
  auto tensor = Tensor::create(dtype, header->shape);
  if (!tensor) return tensor.status().with_context(source + ": ");
  if (dtype == DataType::kBool) {
    // Any non-zero byte is true; keeps the bool objects valid whatever the file holds.
    bool* out = tensor->data<bool>();
    for (size_t i = 0; i < data.size(); ++i) out[i] = data[i] != 0;
  } else if (!data.empty()) {
    std::memcpy(tensor->raw(), data.data(), data.size());
  }
  return tensor;
}

Result<Tensor> read_npy_file(const std::string& path, const ResourceLimits& limits) {
  ASSIGN_OR_RETURN(std::string bytes, read_file_bytes(path, {limits.max_tensor_bytes, 0}));
  return parse_npy(bytes, path);
}

Result<std::string> serialize_npy(const Tensor& t) {
  NpyHeader header;
  header.descr = npy_descr(t.dtype());
  if (header.descr.empty())
    return not_implemented(std::string("a ") + dtype_name(t.dtype()) + " tensor cannot be stored in .npy");
  header.shape = t.shape();
  std::string dict = format_npy_header(header);
  // Total header size (magic, version, length, dict, newline) padded to 64 bytes so the
  // data is aligned when the file is memory-mapped.
  const bool v1 = dict.size() + 1 + 10 <= 65535;
  const size_t prefix = v1 ? 10 : 12;
  const size_t padded = (prefix + dict.size() + 1 + 63) / 64 * 64;
  dict.append(padded - prefix - dict.size() - 1, ' ');
  dict += '\n';
  std::string out(kMagic);
  out += static_cast<char>(v1 ? 1 : 2);
  out += '\0';
  append_le(out, static_cast<uint32_t>(dict.size()), v1 ? 2 : 4);
  out += dict;
  if (t.nbytes() > 0) out.append(static_cast<const char*>(t.raw()), t.nbytes());
  return out;
}

Status write_npy_file(const std::string& path, const Tensor& t) {
  auto bytes = serialize_npy(t);
  if (!bytes) return bytes.status().with_context(path + ": ");
  return write_file_bytes(path, *bytes);
}

}  // namespace twinrt::io
