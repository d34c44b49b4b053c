// How the conformance runner decides that an output matches the expected one.
#pragma once

#include <string>

#include "twinrt/tensor.h"

namespace twinrt::conformance {

struct Tolerance {
  double atol = 1e-7;
  double rtol = 1e-3;
};

// Empty string when `actual` matches `expected`: same kind, dtype and shape; floats within
// |a-b| <= atol + rtol*|b| (NaN equals NaN, infinities must match); integers, bool and
// strings exact; sequences and optionals element by element. Otherwise a description of
// the first mismatch.
std::string compare_values(const Value& actual, const Value& expected, const Tolerance& tol);

// Tests whose expected values come from a random generator are checked by shape, dtype,
// value set and rate. `inputs` are the test's inputs (the probabilities / the data).
bool is_random_test(const std::string& test_name);
std::string check_random_outputs(const std::string& test_name, const std::vector<Value>& inputs,
                                 const std::vector<Value>& actual, const std::vector<Value>& expected);

}  // namespace twinrt::conformance
