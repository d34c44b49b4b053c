// Reading the small integer arguments of the tensor ops (axes, shapes, pads, repeats),
// whether they come from attributes, run-time input tensors or constant inputs known
// at session creation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ops/op.h"

namespace twinrt::tensor_ops {

// Maps an axis in [-rank, rank) to [0, rank); `what` names it in the error.
Result<int64_t> normalize_axis(int64_t axis, int64_t rank, const std::string& what);
// The same for a list; duplicates are an error.
Result<std::vector<int64_t>> normalize_axes(const std::vector<int64_t>& axes, int64_t rank,
                                            const std::string& what);

// An element index from a tensor (Gather, Scatter, ...) checked against an axis of
// `size`, negative values counting from the end; the error names `what`.
inline Result<int64_t> checked_index(int64_t index, int64_t size, const std::string& what) {
  if (index < -size || index >= size)
    return invalid_argument(what + " " + std::to_string(index) + " is out of range for an axis of size " +
                            std::to_string(size) + " (expected [" + std::to_string(-size) + ", " +
                            std::to_string(size - 1) + "])");
  return index < 0 ? index + size : index;
}

// The values of an int32/int64 tensor (any shape), or an error naming `what`.
Result<std::vector<int64_t>> read_ints(const Tensor& t, const std::string& what);
// The single value of a one-element int32/int64 tensor.
Result<int64_t> read_int_scalar(const Tensor& t, const std::string& what);
// The values of any numeric tensor as doubles.
Result<std::vector<double>> read_doubles(const Tensor& t, const std::string& what);

// The values of any numeric tensor as integers (floating-point values truncate toward
// zero; NaN and values outside int64 are an error naming `what`).
Result<std::vector<int64_t>> read_as_ints(const Tensor& t, const std::string& what);

// A one-element tensor of `dt` holding v converted to that type (false/true for bool,
// the empty string for strings): the fill values of Pad and friends.
Result<Tensor> scalar_of_type(DataType dt, double v);

// Input i of a run as an integer list; `what` names it in errors.
Result<std::vector<int64_t>> input_ints(const RunContext& ctx, size_t i, const std::string& what);

// Values of input i when it is known before running (an initializer or constant), and
// an int32/int64 tensor; nullopt otherwise.
std::optional<std::vector<int64_t>> constant_ints(const std::vector<const Tensor*>& constants,
                                                  size_t i);

// Element count of the 1-D input i as the static shape says (nullopt when unknown).
std::optional<int64_t> static_length(const InferContext& ctx, size_t i);

}  // namespace twinrt::tensor_ops
