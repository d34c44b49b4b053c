// Helpers shared by the sequence and optional ops.
#pragma once

#include <cstdint>
#include <string>

#include "ir/ir.h"
#include "ops/op.h"

namespace twinrt {

// Input i as a sequence value (an error naming the input otherwise).
Result<const Value*> sequence_input(const RunContext& ctx, size_t i);

// Resolves a position in a sequence of n tensors: [-n, n-1], or [-n, n] with allow_end
// (insertion). Reads an int32/int64 one-element tensor.
Result<size_t> sequence_position(const Value* position, size_t n, bool allow_end);

// seq(tensor(elem)) with unknown shape; the element type may be undefined.
ir::TypeInfo sequence_type(DataType elem);
// Element type of a sequence type (undefined when unknown).
DataType sequence_elem_type(const ir::TypeInfo& t);

// Factory for kernels without attributes that take MinInputs..MaxInputs inputs, of which
// the first MinInputs are required.
template <class K, size_t MinInputs, size_t MaxInputs>
Result<std::unique_ptr<OpKernel>> create_fixed_arity(const KernelInit& init) {
  if (init.num_inputs() < MinInputs || init.num_inputs() > MaxInputs || !init.has_input(0))
    return init.error("takes " + std::to_string(MinInputs) +
                      (MinInputs == MaxInputs ? "" : " to " + std::to_string(MaxInputs)) + " inputs, got " +
                      std::to_string(init.num_inputs()));
  for (size_t i = 1; i < MinInputs; ++i)
    if (!init.has_input(i)) return init.error("input " + std::to_string(i) + " is required");
  return make_kernel<K>();
}

}  // namespace twinrt
