// Arithmetic on symbolic dimensions for shape inference: products of dims and the
// quotient a Reshape's -1 stands for, keeping named symbols ("batch") where they survive.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/ir.h"

namespace twinrt::tensor_ops {

// The product of dims: a number when all are known, the one symbolic dim when the
// others multiply to 1, unknown otherwise.
ir::Dim dim_product(const std::vector<ir::Dim>& dims);

// The dim d with product(numerator) == d * product(denominator), cancelling equal
// symbols; unknown when it cannot be decided. `exact` is false when both sides are fully
// known and do not divide (an impossible reshape).
ir::Dim dim_quotient(const std::vector<ir::Dim>& numerator, const std::vector<ir::Dim>& denominator,
                     bool* exact);

// Two descriptions of the same dim: the more informative one (known beats named beats
// unknown).
ir::Dim merge_dim(const ir::Dim& a, const ir::Dim& b);

}  // namespace twinrt::tensor_ops
