// QLinearConv -> QLinearConvNhwc (ops/quant/qlinear_conv_nhwc.cc) where the op can read its
// uint8 activations in NHWC, and QdqAdd on two such results in NHWC as well (an elementwise
// op without broadcast does not care about the layout). Transposes are added only where a
// region's values enter from or leave to the other ops (and graph outputs), so a chain of
// convolutions and residual adds (ResNet's stages) runs without im2col and without packing
// its activations. Bit-preserving: the NHWC convolution computes the same exact int32
// sums and requantizes them the same way; transposes move bytes.
#include <algorithm>
#include <map>

#include "ir/attributes.h"
#include "passes/graph_uses.h"
#include "passes/passes.h"

namespace twinrt::passes {
namespace {


class NhwcLayout {
 public:
  explicit NhwcLayout(ir::Graph& g) : g_(g), uses_(graph_uses(g)) {}

  int run() {
    int converted = 0;
    std::vector<ir::Node> out;
    for (ir::Node& n : g_.nodes) {
      if (convertible_conv(n)) {
        n.inputs[0] = to_nhwc(n.inputs[0], out);
        n.op_type = "QLinearConvNhwc";
        n.domain = ir::kInternalDomain;
        if (n.fused_from.empty()) n.fused_from = {n.name};  // an internal node names what it came from
        rename_output(n);
        ++converted;
      } else if (is_op(n, "QdqAdd", ir::kInternalDomain) && nhwc_.count(n.inputs[0]) && nhwc_.count(n.inputs[3]) &&
                 n.inputs[0] != n.inputs[3]) {
        const std::string a = n.inputs[0], b = n.inputs[3];
        n.inputs[0] = nhwc_[a];
        n.inputs[3] = nhwc_[b];
        rename_output(n);
        if (absorb_residual(n, a, 0, out) || absorb_residual(n, b, 3, out)) continue;
      } else {
        for (const std::string& in : n.inputs) back_to_nchw(in, out);
        for (const ir::Attribute& a : n.attributes)
          if (a.g || !a.graphs.empty()) back_all(out);  // a nested graph may read any of them
      }
      out.push_back(std::move(n));
    }
    for (const auto& [name, nhwc] : nhwc_)
      if (uses_.pinned.count(name)) back_to_nchw(name, out);
    g_.nodes = std::move(out);
    return converted;
  }

 private:
  const Tensor* initializer(const std::string& name) const {
    auto it = g_.initializers.find(name);
    return it == g_.initializers.end() ? nullptr : &it->second;
  }

  bool scalar_zero(const std::string& name, DataType type) const {
    const Tensor* t = initializer(name);
    return t && t->dtype() == type && t->numel() == 1;
  }

  // What QLinearConvNhwc accepts, decided from the initializers: uint8 X and Y, constant
  // int8 weights [M, C, kh, kw] with C % 4 == 0 and zero points 0, group 1.
  bool convertible_conv(const ir::Node& n) const {
    if (!is_op(n, "QLinearConv") || n.inputs.size() < 8 || n.inputs.size() > 9 || n.outputs.size() != 1) return false;
    for (const ir::Attribute& a : n.attributes) {
      if (a.name == "group" && a.i != 1) return false;
      if (a.name == "kernel_shape" && a.ints.size() != 2) return false;
    }
    const Tensor* w = initializer(n.inputs[3]);
    const Tensor* wz = initializer(n.inputs[5]);
    if (!w || !wz || w->dtype() != DataType::kInt8 || w->rank() != 4 || w->dim(1) % 4 != 0) return false;
    if (wz->dtype() != DataType::kInt8) return false;
    for (int64_t i = 0; i < wz->numel(); ++i)
      if (wz->data<int8_t>()[i] != 0) return false;
    return scalar_zero(n.inputs[2], DataType::kUInt8) && scalar_zero(n.inputs[7], DataType::kUInt8);
  }

  // A QdqAdd whose operand `k` (0 or 3; NCHW name `value`) is the result of a
  // QLinearConvNhwc that nothing else reads becomes part of that convolution
  // (ops/quant/qlinear_conv_nhwc.cc: inputs 9-15, the add done on each output block in
  // cache). The node moves to the add's place, after the other operand's producer. The
  // other operand is the conv's `b`: Add is commutative in floats, so the bytes are the same.
  bool absorb_residual(const ir::Node& add, const std::string& value, size_t k, std::vector<ir::Node>& out) const {
    if (!uses_.only_read_once(value) || uses_.pinned.count(value) || add.inputs.size() != 8) return false;
    auto conv = std::find_if(out.begin(), out.end(), [&](const ir::Node& c) {
      return !c.outputs.empty() && c.outputs[0] == add.inputs[k] && is_op(c, "QLinearConvNhwc", ir::kInternalDomain);
    });
    if (conv == out.end() || conv->inputs.size() > 9) return false;
    ir::Node fused = std::move(*conv);
    out.erase(conv);
    const size_t other = 3 - k;
    fused.inputs.resize(9);  // an absent bias stays ""
    for (size_t i : {k + 1, k + 2, other, other + 1, other + 2, size_t{6}, size_t{7}}) fused.inputs.push_back(add.inputs[i]);
    const ir::Attribute* relu = add.attr("relu");
    fused.attributes.push_back(ir::int_attribute("residual_relu", relu ? relu->i : 0));
    fused.outputs = add.outputs;
    fused.fused_from.push_back(add.name);
    fused.fused_from.insert(fused.fused_from.end(), add.fused_from.begin(), add.fused_from.end());
    out.push_back(std::move(fused));
    return true;
  }

  static ir::Node transpose(const std::string& from, const std::string& to, std::vector<int64_t> perm) {
    ir::Node t;
    t.name = to + "_transpose";
    t.op_type = "Transpose";
    t.inputs = {from};
    t.outputs = {to};
    t.attributes = {ir::ints_attribute("perm", std::move(perm))};
    return t;
  }

  // The NHWC name of `value`, adding its transpose the first time an NCHW value enters.
  std::string to_nhwc(const std::string& value, std::vector<ir::Node>& out) {
    if (auto it = nhwc_.find(value); it != nhwc_.end()) return it->second;
    auto [it, fresh] = entered_.emplace(value, value + "__nhwc");
    if (fresh) out.push_back(transpose(value, it->second, {0, 2, 3, 1}));
    return it->second;
  }

  // The node now writes the NHWC value; the original name is written by a transpose back,
  // added before the first reader that needs it.
  void rename_output(ir::Node& n) {
    nhwc_[n.outputs[0]] = n.outputs[0] + "__nhwc";
    n.outputs[0] += "__nhwc";
  }

  void back_to_nchw(const std::string& value, std::vector<ir::Node>& out) {
    auto it = nhwc_.find(value);
    if (it == nhwc_.end() || !left_.insert(value).second) return;
    out.push_back(transpose(it->second, value, {0, 3, 1, 2}));
  }

  void back_all(std::vector<ir::Node>& out) {
    for (const auto& [name, nhwc] : nhwc_) back_to_nchw(name, out);
  }

  ir::Graph& g_;
  GraphUses uses_;
  std::map<std::string, std::string> nhwc_;     // NCHW name -> NHWC name, for values the region writes
  std::map<std::string, std::string> entered_;  // the same for values transposed into the region
  std::set<std::string> left_;                  // region values already transposed back
};

}  // namespace

int layout_nhwc(ir::Model& model) {
  if (model.opset("") < 10) return 0;  // QLinearConv arrived in opset 10
  return NhwcLayout(*model.graph).run();
}

}  // namespace twinrt::passes
