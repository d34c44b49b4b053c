#include "pipeline/batching.h"

#include <cstring>

namespace twinrt::pipeline {

Result<Tensor> concat_batch(const std::vector<Tensor>& parts) {
  if (parts.empty()) return internal_error("concat_batch: no parts");
  const Tensor& first = parts.front();
  if (first.dtype() == DataType::kString || first.rank() == 0)
    return invalid_argument("cannot batch " + std::string(dtype_name(first.dtype())) + shape_to_string(first.shape()));
  std::vector<int64_t> shape = first.shape();
  shape[0] = 0;
  for (const Tensor& p : parts) {
    std::vector<int64_t> rest(p.shape().begin() + 1, p.shape().end());
    if (p.dtype() != first.dtype() || p.rank() != first.rank() ||
        !std::equal(rest.begin(), rest.end(), first.shape().begin() + 1))
      return invalid_argument("cannot batch " + shape_to_string(p.shape()) + " with " + shape_to_string(first.shape()));
    shape[0] += p.dim(0);
  }
  ASSIGN_OR_RETURN(Tensor batch, Tensor::create_for_overwrite(first.dtype(), shape));
  auto* out = static_cast<std::byte*>(batch.raw());
  for (const Tensor& p : parts) {
    if (p.nbytes()) std::memcpy(out, p.raw(), p.nbytes());
    out += p.nbytes();
  }
  return batch;
}

Result<std::vector<Tensor>> split_batch(const Tensor& batch, const std::vector<int64_t>& sizes) {
  int64_t total = 0;
  for (int64_t s : sizes) total += s;
  if (batch.dtype() == DataType::kString || batch.rank() == 0 || batch.dim(0) != total)
    return invalid_argument("a batched output " + std::string(dtype_name(batch.dtype())) + shape_to_string(batch.shape()) +
                            " does not have the " + std::to_string(total) + " rows of its batch along axis 0");
  const size_t row_bytes = total ? batch.nbytes() / static_cast<size_t>(total) : 0;
  std::vector<Tensor> parts;
  const auto* in = static_cast<const std::byte*>(batch.raw());
  for (int64_t s : sizes) {
    std::vector<int64_t> shape = batch.shape();
    shape[0] = s;
    ASSIGN_OR_RETURN(Tensor part, Tensor::create_for_overwrite(batch.dtype(), shape));
    if (part.nbytes()) std::memcpy(part.raw(), in, part.nbytes());
    in += row_bytes * static_cast<size_t>(s);
    parts.push_back(std::move(part));
  }
  return parts;
}

}  // namespace twinrt::pipeline
