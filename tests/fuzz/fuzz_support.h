// Shared by the graph and feed fuzzers: small models built in memory, tensors with the values
// that break kernels (NaN, infinities, denormals, extremes, 0-sized dims), and sessions loaded
// through the public API under small resource limits.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ir/attributes.h"
#include "ir/ir.h"
#include "twinrt/session.h"

namespace twinrt::fuzz {

// Small limits for every session a fuzzer loads (a tensor of 1 MiB, 16 MiB in all): an
// Expand, Range or ConstantOfShape whose size comes from data must fail fast instead of
// allocating gigabytes (which -rss_limit_mb would report as a finding). Call once.
void use_small_limits();

// True once in `n` calls on random bytes, false once the bytes have run out (so a short
// input means the common case, not every rare one).
bool one_in(FuzzedDataProvider& in, int n);

// A tensor of `dtype` and `dims` holding values chosen from the bytes: mostly small numbers
// (indices and shapes stay meaningful), sometimes NaN, ±inf, denormals and extremes.
Tensor random_tensor(FuzzedDataProvider& in, DataType dtype, const std::vector<int64_t>& dims);
// Rank min_rank..max_rank, dims 1..3 with an occasional 0.
std::vector<int64_t> random_dims(FuzzedDataProvider& in, int max_rank, int min_rank = 0);
// Any dtype a tensor can have (complex types included).
DataType random_dtype(FuzzedDataProvider& in);
// A small integer, sometimes an extreme one (int64 limits, 2^40).
int64_t random_int(FuzzedDataProvider& in);
// A number in [-4, 4], sometimes NaN, ±inf, a denormal or an extreme.
double random_real(FuzzedDataProvider& in);

// Model building.
using ir::int_attribute;
using ir::ints_attribute;
using ir::string_attribute;
ir::Node make_node(std::string op_type, std::vector<std::string> inputs, std::vector<std::string> outputs,
                   std::vector<ir::Attribute> attributes = {}, std::string domain = "");
ir::ValueInfo value_info(std::string name, ir::TypeInfo type);
// A tensor declaration: dims >= 0 are fixed, -1 is unknown, and a non-empty symbol names it.
ir::TypeInfo tensor_type(DataType dtype, const std::vector<int64_t>& dims,
                         const std::vector<std::string>& symbols = {});
ir::Model make_model(ir::Graph graph, int64_t opset);

// Serializes the model and loads it with Session::load_bytes, as a user would.
Result<std::unique_ptr<Session>> load_session(const ir::Model& model, const SessionOptions& options);

}  // namespace twinrt::fuzz
