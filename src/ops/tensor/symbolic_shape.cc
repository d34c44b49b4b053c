#include "ops/tensor/symbolic_shape.h"

#include <algorithm>
#include <string>

namespace twinrt::tensor_ops {
namespace {

// Splits dims into the product of the known ones and the list of symbols; false when a
// dim is unknown and unnamed (nothing can be said) or the product overflows.
bool split_dims(const std::vector<ir::Dim>& dims, int64_t* known, std::vector<std::string>* symbols) {
  *known = 1;
  for (const ir::Dim& d : dims) {
    if (d.known()) {
      if (d.value != 0 && *known > INT64_MAX / d.value) return false;
      *known *= d.value;
    } else if (!d.symbol.empty()) {
      symbols->push_back(d.symbol);
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

ir::Dim dim_product(const std::vector<ir::Dim>& dims) {
  int64_t known = 1;
  const ir::Dim* symbolic = nullptr;
  int unknown = 0;
  for (const ir::Dim& d : dims) {
    if (d.known()) {
      if (d.value == 0) return ir::Dim::of(0);
      if (known > INT64_MAX / d.value) return ir::Dim{};
      known *= d.value;
    } else {
      ++unknown;
      symbolic = &d;
    }
  }
  if (unknown == 0) return ir::Dim::of(known);
  if (unknown == 1 && known == 1) return *symbolic;
  return ir::Dim{};
}

ir::Dim dim_quotient(const std::vector<ir::Dim>& numerator, const std::vector<ir::Dim>& denominator,
                     bool* exact) {
  *exact = true;
  int64_t num = 1, den = 1;
  std::vector<std::string> num_syms, den_syms;
  if (!split_dims(numerator, &num, &num_syms) || !split_dims(denominator, &den, &den_syms))
    return ir::Dim{};
  // Cancel symbols present on both sides.
  for (auto it = den_syms.begin(); it != den_syms.end();) {
    auto match = std::find(num_syms.begin(), num_syms.end(), *it);
    if (match == num_syms.end()) {
      ++it;
      continue;
    }
    num_syms.erase(match);
    it = den_syms.erase(it);
  }
  if (!den_syms.empty() || den == 0) return ir::Dim{};
  if (num_syms.empty()) {
    if (num % den != 0) {
      *exact = false;
      return ir::Dim{};
    }
    return ir::Dim::of(num / den);
  }
  if (num_syms.size() == 1 && num == den) return ir::Dim::named(num_syms[0]);
  return ir::Dim{};
}

ir::Dim merge_dim(const ir::Dim& a, const ir::Dim& b) {
  if (a.known()) return a;
  if (b.known()) return b;
  if (!a.symbol.empty()) return a;
  return b;
}

}  // namespace twinrt::tensor_ops
