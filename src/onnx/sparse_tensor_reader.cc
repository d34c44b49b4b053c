// SparseTensorProto → dense Tensor. Indices are either linear ([NNZ]) or coordinates
// ([NNZ, rank]); every index is range-checked before it is used.
#include <cstring>

#include "onnx/proto_fields.h"
#include "onnx/tensor_reader.h"
#include "onnx/wire.h"

namespace twinrt::onnx {
namespace {

// A sparse tensor's dense size is not bounded by the file size (a few bytes can declare
// huge dims), so densifying is capped well below what would exhaust memory.
constexpr uint64_t kMaxDenseBytes = uint64_t{1} << 30;

// Linear position of value `k` in the dense tensor, or an error naming the bad index.
Result<int64_t> linear_index(const Tensor& indices, int64_t k, const std::vector<int64_t>& dims,
                             int64_t numel) {
  const int64_t* idx = indices.data<int64_t>();
  if (indices.rank() == 1) {
    int64_t v = idx[k];
    if (v < 0 || v >= numel)
      return invalid_model("index " + std::to_string(v) + " is outside [0, " + std::to_string(numel) + ")");
    return v;
  }
  const int64_t rank = static_cast<int64_t>(dims.size());
  int64_t linear = 0;
  for (int64_t j = 0; j < rank; ++j) {
    int64_t v = idx[k * rank + j];
    if (v < 0 || v >= dims[static_cast<size_t>(j)])
      return invalid_model("coordinate " + std::to_string(v) + " of value " + std::to_string(k) +
                           " is outside dimension " + std::to_string(j) + " of size " +
                           std::to_string(dims[static_cast<size_t>(j)]));
    linear = linear * dims[static_cast<size_t>(j)] + v;
  }
  return linear;
}

Result<Tensor> densify(const Tensor& values, const Tensor& indices, const std::vector<int64_t>& dims,
                       ReadContext& ctx) {
  for (int64_t d : dims)
    if (d < 0) return invalid_model("negative dimension in dims " + shape_to_string(dims));
  if (values.rank() != 1) return invalid_model("values must be 1-D, got " + shape_to_string(values.shape()));
  const int64_t nnz = values.numel();
  if (indices.dtype() != DataType::kInt64)
    return invalid_model(std::string("indices must be int64, got ") + dtype_name(indices.dtype()));
  const bool linear = indices.rank() == 1 && indices.dim(0) == nnz;
  const bool coords = indices.rank() == 2 && indices.dim(0) == nnz &&
                      indices.dim(1) == static_cast<int64_t>(dims.size());
  if (!linear && !coords)
    return invalid_model("indices of shape " + shape_to_string(indices.shape()) + " fit neither [" +
                         std::to_string(nnz) + "] nor [" + std::to_string(nnz) + "," +
                         std::to_string(dims.size()) + "]");
  const int64_t dense_numel = shape_numel(dims);
  if (dense_numel < 0 || static_cast<uint64_t>(dense_numel) > kMaxDenseBytes / dtype_size(values.dtype()))
    return invalid_model("dims " + shape_to_string(dims) + " are too large to densify");
  TRY(charge_tensor(ctx, static_cast<uint64_t>(dense_numel) * dtype_size(values.dtype()),
                    std::string("dense ") + dtype_name(values.dtype()) + shape_to_string(dims)));
  ASSIGN_OR_RETURN(Tensor dense, Tensor::create(values.dtype(), dims));
  const int64_t numel = dense.numel();
  const size_t esize = dtype_size(values.dtype());
  for (int64_t k = 0; k < nnz; ++k) {
    ASSIGN_OR_RETURN(int64_t at, linear_index(indices, k, dims, numel));
    if (values.dtype() == DataType::kString)
      dense.data<std::string>()[at] = values.data<std::string>()[k];
    else
      std::memcpy(static_cast<std::byte*>(dense.raw()) + static_cast<size_t>(at) * esize,
                  static_cast<const std::byte*>(values.raw()) + static_cast<size_t>(k) * esize, esize);
  }
  return dense;
}

}  // namespace

Result<Tensor> read_sparse_tensor(const uint8_t* data, size_t size, ReadContext& ctx, std::string* name) {
  NestingGuard guard(ctx);
  TRY(guard.check("SparseTensorProto"));
  wire::WireReader r(data, size, "SparseTensorProto");
  wire::Field f;
  Tensor values, indices;
  std::string values_name;
  std::vector<int64_t> dims;
  bool has_values = false, has_indices = false;
  while (!r.at_end()) {
    TRY(r.next(&f));
    if (f.number == sparse_tensor_proto::kValues) {
      TRY(wire::expect_type(f, wire::WireType::kLen, "SparseTensorProto.values"));
      ASSIGN_OR_RETURN(values, read_tensor(f.data, f.size, ctx, &values_name));
      has_values = true;
    } else if (f.number == sparse_tensor_proto::kIndices) {
      TRY(wire::expect_type(f, wire::WireType::kLen, "SparseTensorProto.indices"));
      ASSIGN_OR_RETURN(indices, read_tensor(f.data, f.size, ctx));
      has_indices = true;
    } else if (f.number == sparse_tensor_proto::kDims) {
      TRY(wire::append_int64s(f, "SparseTensorProto.dims", &dims));
    }
  }
  const std::string label = "sparse tensor '" + values_name + "': ";
  if (!has_values || !has_indices)
    return invalid_model(label + (has_values ? "indices" : "values") + " missing");
  auto dense = densify(values, indices, dims, ctx);
  if (!dense) return dense.status().with_context(label);
  if (name) *name = std::move(values_name);
  return dense;
}

}  // namespace twinrt::onnx
