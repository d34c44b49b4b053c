#include "pipeline/contract.h"

#include <cmath>

#include "io/tensor_stats.h"

namespace twinrt::pipeline {
namespace {

Result<DataType> parse_dtype(const std::string& name) {
  for (int code = 1; code <= 16; ++code) {
    const auto dtype = static_cast<DataType>(code);
    if (name == dtype_name(dtype)) return dtype;
  }
  return invalid_argument("unknown dtype '" + name + "' (use numpy names: float32, uint8, int64, string, ...)");
}

std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

Status check_tensor(const Contract& c, const std::string& name, const Tensor& t, DimBindings& bindings) {
  const std::string got = std::string(dtype_name(t.dtype())) + shape_to_string(t.shape());
  if (c.dtype && *c.dtype != t.dtype())
    return invalid_argument("tensor '" + name + "': expected dtype " + dtype_name(*c.dtype) + ", got " + got);
  if (c.shape) {
    const auto& dims = *c.shape;
    if (static_cast<int64_t>(dims.size()) != t.rank())
      return invalid_argument("tensor '" + name + "': expected shape " + c.describe_shape() + " (rank " +
                              std::to_string(dims.size()) + "), got " + got);
    for (size_t i = 0; i < dims.size(); ++i) {
      const int64_t actual = t.dim(static_cast<int64_t>(i));
      const DimContract& d = dims[i];
      if (d.value >= 0 && d.value != actual)
        return invalid_argument("tensor '" + name + "': expected shape " + c.describe_shape() + ", got " + got +
                                " (dim " + std::to_string(i) + " is " + std::to_string(actual) + ", not " +
                                std::to_string(d.value) + ")");
      if (d.symbol.empty()) continue;
      auto [it, inserted] = bindings.try_emplace(d.symbol, actual, name);
      if (!inserted && it->second.first != actual)
        return invalid_argument("tensor '" + name + "': expected shape " + c.describe_shape() + " with " + d.symbol +
                                "=" + std::to_string(it->second.first) + " (as in '" + it->second.second +
                                "'), got " + got);
    }
  }
  if (c.range) {
    auto stats = io::tensor_stats(t);
    if (!stats) return stats.status().with_context("tensor '" + name + "': range contract: ");
    const auto [lo, hi] = *c.range;
    const std::string expected = "values in [" + format_number(lo) + ", " + format_number(hi) + "]";
    if (stats->nan_count > 0)
      return invalid_argument("tensor '" + name + "': expected " + expected + ", got " +
                              std::to_string(stats->nan_count) + " NaN");
    if (stats->has_values && (stats->min < lo || stats->max > hi))
      return invalid_argument("tensor '" + name + "': expected " + expected + ", got min " +
                              format_number(stats->min) + " max " + format_number(stats->max));
  }
  return Status::ok();
}

}  // namespace

std::string Contract::describe_shape() const {
  if (!shape) return "any";
  std::string text = "[";
  for (size_t i = 0; i < shape->size(); ++i) {
    const DimContract& d = (*shape)[i];
    text += (i ? "," : "") + (d.value >= 0 ? std::to_string(d.value) : d.symbol.empty() ? "?" : d.symbol);
  }
  return text + "]";
}

Result<Contract> parse_contract(const nlohmann::json& json) {
  if (!json.is_object()) return invalid_argument("a contract must be an object, got " + json.dump());
  Contract c;
  for (const auto& [key, v] : json.items()) {
    if (key == "dtype") {
      if (!v.is_string()) return invalid_argument("'dtype' must be a string, got " + v.dump());
      ASSIGN_OR_RETURN(c.dtype, parse_dtype(v.get<std::string>()));
    } else if (key == "shape") {
      if (!v.is_array()) return invalid_argument("'shape' must be a list, got " + v.dump());
      std::vector<DimContract> dims;
      for (const auto& d : v) {
        if (d.is_number_integer() && d.get<int64_t>() >= 0) dims.push_back({d.get<int64_t>(), ""});
        else if (d.is_string() && d.get<std::string>() == "?") dims.push_back({});
        else if (d.is_string() && !d.get<std::string>().empty()) dims.push_back({-1, d.get<std::string>()});
        else return invalid_argument("'shape' entries are sizes >= 0, names or \"?\", got " + d.dump());
      }
      c.shape = std::move(dims);
    } else if (key == "range") {
      if (!v.is_array() || v.size() != 2 || !v[0].is_number() || !v[1].is_number() || v[0].get<double>() > v[1].get<double>())
        return invalid_argument("'range' must be [low, high] with low <= high, got " + v.dump());
      c.range = std::make_pair(v[0].get<double>(), v[1].get<double>());
    } else {
      return invalid_argument("unknown contract key '" + key + "' (known: dtype, shape, range)");
    }
  }
  return c;
}

Status check_contract(const Contract& contract, const std::string& value_name, const PipelineValue& value,
                      DimBindings& bindings) {
  if (!value.is_list) return check_tensor(contract, value_name, value.tensor(), bindings);
  for (size_t i = 0; i < value.items.size(); ++i) {
    DimBindings item_bindings = bindings;
    TRY(check_tensor(contract, value_name + "[" + std::to_string(i) + "]", value.items[i], item_bindings));
  }
  return Status::ok();
}

}  // namespace twinrt::pipeline
