// Contracts on the values between stages: dtype, shape with named symbolic dims (shared
// across the whole pipeline run) and value range. Checked after every stage.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "pipeline/value.h"

namespace twinrt::pipeline {

struct DimContract {
  int64_t value = -1;  // a fixed size, or -1
  std::string symbol;  // a named dim ("H"), or "" (with value -1: any size)
};

struct Contract {
  std::optional<DataType> dtype;
  std::optional<std::vector<DimContract>> shape;
  std::optional<std::pair<double, double>> range;  // every element in [lo, hi]
  std::string describe_shape() const;              // "[1,3,H,W]"
};

// {"dtype": "float32", "shape": [1, 3, "H", "W"], "range": [-1, 1]}; "?" in a shape is any size.
Result<Contract> parse_contract(const nlohmann::json& json);

// Symbol values bound so far in one run: symbol -> (size, value that bound it).
using DimBindings = std::map<std::string, std::pair<int64_t, std::string>>;

// Checks `value` (each item of a list) against `contract`. Symbols bound by a single
// tensor hold for the rest of the run; symbols first seen in a list's items are bound per
// item. The error names the value, what was expected and what came.
Status check_contract(const Contract& contract, const std::string& value_name, const PipelineValue& value,
                      DimBindings& bindings);

}  // namespace twinrt::pipeline
