// Fuzzes what users hand Session::run: a fixed set of small valid models (built below, one
// or two ops each, several whose output shape comes from the data) and feeds decoded from
// the bytes — mostly valid ones with hostile values (NaN, ±inf, extremes, out-of-range
// indices, shapes of 2^40), and wrong dtypes, ranks and dims, 0-sized dims, missing, extra and
// empty names, empty tensors, sequences and optionals where tensors belong, views at odd
// offsets. Errors are fine; crashes, sanitizer reports, hangs and big allocations are
// findings, and so is a session whose answer to a fixed feed changes after a bad run.
#include <cstring>

#include "fuzz_support.h"

namespace twinrt::fuzz {
namespace {

using Inputs = std::vector<std::pair<std::string, ir::TypeInfo>>;

ir::TypeInfo tensor(DataType dtype, std::vector<int64_t> dims, std::vector<std::string> symbols = {}) {
  return tensor_type(dtype, dims, symbols);
}

ir::Model one_node(const std::string& op, const Inputs& inputs, int outputs,
                   std::vector<ir::Attribute> attributes = {}, int64_t opset = 17) {
  ir::Graph g;
  g.name = op;
  std::vector<std::string> in, out;
  for (const auto& [name, type] : inputs) {
    if (type.kind != ir::TypeInfo::Kind::kUnknown) g.inputs.push_back(value_info(name, type));  // else an initializer
    in.push_back(name);
  }
  for (int i = 0; i < outputs; ++i) {
    out.push_back("y" + std::to_string(i));
    g.outputs.push_back(value_info(out.back(), ir::TypeInfo{}));
  }
  g.nodes.push_back(make_node(op, in, out, std::move(attributes)));
  return make_model(std::move(g), opset);
}

ir::Model with_initializer(ir::Model m, const std::string& name, Tensor t) {
  m.graph->initializers[name] = std::move(t);
  m.graph->initializer_order.push_back(name);
  return m;
}

Tensor filled(DataType dtype, std::vector<int64_t> dims) {
  auto t = Tensor::create(dtype, std::move(dims));
  if (t && dtype == DataType::kFloat)
    for (int64_t i = 0; i < t->numel(); ++i) t->data<float>()[i] = 0.25f * static_cast<float>(i % 7);
  return t ? *t : Tensor{};
}

std::vector<ir::Model> make_models() {
  using D = DataType;
  const auto f = D::kFloat;
  const auto i64 = D::kInt64;
  ir::Attribute value;
  value.name = "value";
  value.type = ir::Attribute::Type::kTensor;
  value.t = filled(f, {1});
  ir::Graph branch;
  branch.name = "branch";
  branch.nodes.push_back(make_node("Constant", {}, {"c"}, {value}));
  branch.outputs.push_back(value_info("c", ir::TypeInfo{}));
  ir::Attribute then_branch, else_branch;
  then_branch.type = else_branch.type = ir::Attribute::Type::kGraph;
  then_branch.name = "then_branch";
  else_branch.name = "else_branch";
  then_branch.g = else_branch.g = std::make_shared<ir::Graph>(branch);

  std::vector<ir::Model> m;
  m.push_back(one_node("Add", {{"x", tensor(f, {-1, 3}, {"n"})}, {"b", tensor(f, {3})}}, 1));
  m.push_back(with_initializer(
      with_initializer(one_node("Conv", {{"x", tensor(f, {1, 2, 5, 5})}, {"w", {}}, {"bias", {}}}, 1,
                                {ints_attribute("pads", {1, 1, 1, 1})}),
                       "w", filled(f, {3, 2, 3, 3})),
      "bias", filled(f, {3})));
  m.push_back(one_node("MatMul", {{"a", tensor(f, {-1, 4}, {"m"})}, {"b", tensor(f, {4, -1}, {"n"})}}, 1));
  m.push_back(one_node("Gather", {{"data", tensor(f, {5, 3})}, {"idx", tensor(i64, {-1})}}, 1));
  m.push_back(one_node("Reshape", {{"x", tensor(f, {-1})}, {"shape", tensor(i64, {2})}}, 1));
  m.push_back(one_node("Expand", {{"x", tensor(f, {1})}, {"shape", tensor(i64, {-1})}}, 1));
  m.push_back(one_node("Cast", {{"s", tensor(D::kString, {-1})}}, 1, {int_attribute("to", 1)}));
  m.push_back(one_node("SequenceAt", {{"seq", ir::TypeInfo::sequence_of(tensor(f, {}))}, {"pos", tensor(i64, {})}}, 1));
  m.push_back(one_node("ConcatFromSequence", {{"seq", ir::TypeInfo::sequence_of(ir::TypeInfo::tensor(f))}}, 1,
                       {int_attribute("axis", 0)}));
  m.push_back(one_node("OptionalGetElement", {{"o", ir::TypeInfo::optional_of(tensor(f, {-1}))}}, 1, {}, 18));
  m.push_back(one_node("Where", {{"c", tensor(D::kBool, {-1})}, {"x", tensor(f, {-1})}, {"y", tensor(f, {-1})}}, 1));
  m.push_back(one_node("TopK", {{"x", tensor(f, {-1, -1})}, {"k", tensor(i64, {1})}}, 2));
  m.push_back(one_node("Slice", {{"x", tensor(f, {-1, -1})}, {"starts", tensor(i64, {-1})}, {"ends", tensor(i64, {-1})},
                                 {"axes", tensor(i64, {-1})}, {"steps", tensor(i64, {-1})}}, 1));
  m.push_back(one_node("OneHot", {{"i", tensor(i64, {-1})}, {"depth", tensor(i64, {})}, {"v", tensor(f, {2})}}, 1));
  m.push_back(one_node("ConstantOfShape", {{"shape", tensor(i64, {-1})}}, 1));
  m.push_back(one_node("Range", {{"start", tensor(f, {})}, {"limit", tensor(f, {})}, {"delta", tensor(f, {})}}, 1));
  m.push_back(one_node("Pad", {{"x", tensor(f, {-1, -1})}, {"pads", tensor(i64, {4})}, {"v", tensor(f, {})}}, 1));
  m.push_back(one_node("Softmax", {{"x", tensor(D::kFloat16, {2, -1})}}, 1));
  m.push_back(one_node("Tile", {{"x", tensor(f, {-1, -1})}, {"r", tensor(i64, {2})}}, 1));
  m.push_back(one_node("Resize", {{"x", tensor(f, {1, 1, -1, -1})}, {"roi", tensor(f, {-1})}, {"scales", tensor(f, {4})}},
                       1, {string_attribute("mode", "linear")}));
  m.push_back(one_node("NonZero", {{"x", tensor(D::kInt32, {-1, -1})}}, 1));
  m.push_back(one_node("CumSum", {{"x", tensor(D::kDouble, {-1})}, {"axis", tensor(D::kInt32, {})}}, 1));
  m.push_back(one_node("QuantizeLinear", {{"x", tensor(f, {-1})}, {"s", tensor(f, {})}, {"z", tensor(D::kUInt8, {})}}, 1));
  m.push_back(one_node("ScatterElements", {{"d", tensor(f, {3, 3})}, {"i", tensor(i64, {-1, -1})},
                                           {"u", tensor(f, {-1, -1})}}, 1));
  m.push_back(one_node("If", {{"cond", tensor(D::kBool, {})}}, 1, {then_branch, else_branch}));
  m.push_back(one_node("ArgMax", {{"x", tensor(f, {-1, -1, -1})}}, 1, {int_attribute("axis", 1)}));
  m.push_back(one_node("StringNormalizer", {{"s", tensor(D::kString, {-1})}}, 1,
                       {string_attribute("case_change_action", "UPPER")}));
  m.push_back(one_node("Unsqueeze", {{"x", tensor(D::kUInt16, {-1})}, {"axes", tensor(i64, {-1})}}, 1));
  return m;
}

// Sessions of every model in every mode, loaded once: they are immutable, so thousands of
// runs can share them. `baseline` is each one's answer to its fixed feed.
struct Loaded {
  std::unique_ptr<Session> session;
  std::map<std::string, Value> fixed_feed;
  Result<std::map<std::string, Value>> baseline = internal_error("not run");
};

// Every input at its declared dtype, unknown dims 1, zeros (but no empty sequence or optional).
std::map<std::string, Value> fixed_feed(const Session& s) {
  std::map<std::string, Value> feeds;
  for (const IoInfo& io : s.inputs()) {
    std::vector<int64_t> dims = io.dims;
    for (int64_t& d : dims) d = d < 0 ? 1 : d;
    Tensor t = *Tensor::create(io.dtype, dims);
    if (io.type == "sequence") feeds[io.name] = Value::of_sequence({t}, io.dtype);
    else if (io.type == "optional") feeds[io.name] = Value::of_optional(std::make_shared<Value>(Value::of(t)));
    else feeds[io.name] = Value::of(t);
  }
  return feeds;
}

bool same_bytes(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  if (a.dtype() == DataType::kString) {
    for (int64_t i = 0; i < a.numel(); ++i)
      if (a.data<std::string>()[i] != b.data<std::string>()[i]) return false;
    return true;
  }
  return a.nbytes() == 0 || std::memcmp(a.raw(), b.raw(), a.nbytes()) == 0;
}

bool same_result(const Result<std::map<std::string, Value>>& a, const Result<std::map<std::string, Value>>& b) {
  if (a.is_ok() != b.is_ok()) return false;
  if (!a.is_ok()) return a.status().message() == b.status().message();
  if (a->size() != b->size()) return false;
  for (const auto& [name, v] : a.value()) {
    auto it = b->find(name);
    if (it == b->end() || v.kind != it->second.kind) return false;
    if (v.is_tensor() && !same_bytes(v.tensor, it->second.tensor)) return false;
  }
  return true;
}

std::vector<Loaded>& sessions() {
  static std::vector<Loaded> loaded = [] {
    std::vector<Loaded> out;
    for (const ir::Model& model : make_models())
      for (Mode mode : {Mode::kDefault, Mode::kReference, Mode::kExact}) {
        SessionOptions options;
        options.mode = mode;
        auto s = load_session(model, options);
        if (!s) {  // a model here that does not load is a mistake in this file
          fprintf(stderr, "fuzz_feeds: %s does not load: %s\n", model.graph->name.c_str(), s.status().message().c_str());
          abort();
        }
        Loaded l;
        l.session = std::move(*s);
        l.fixed_feed = fixed_feed(*l.session);
        l.baseline = l.session->run(l.fixed_feed);
        out.push_back(std::move(l));
      }
    return out;
  }();
  return loaded;
}

// Bytes a view can point into at any offset.
class Bytes final : public Storage {
 public:
  explicit Bytes(size_t n) : bytes_(n) {}
  std::byte* data() override { return bytes_.data(); }
  size_t size() const override { return bytes_.size(); }

 private:
  std::vector<std::byte> bytes_;
};

// The same tensor moved to `offset` bytes into a larger storage (not a multiple of the
// element size when `offset` is odd).
Tensor at_offset(const Tensor& t, size_t offset) {
  if (t.dtype() == DataType::kString) return t;
  auto storage = std::make_shared<Bytes>(t.nbytes() + offset);
  if (t.nbytes()) std::memcpy(storage->data() + offset, t.raw(), t.nbytes());
  auto v = Tensor::view(t.dtype(), t.shape(), storage, offset);
  return v ? *v : t;
}

Value feed_for(FuzzedDataProvider& in, const IoInfo& io) {
  std::vector<int64_t> dims = io.dims;
  for (int64_t& d : dims) d = d >= 0 ? d : in.ConsumeIntegralInRange(0, 4);
  DataType dtype = io.dtype;
  switch (in.ConsumeIntegralInRange(0, 15)) {
    case 15: dtype = random_dtype(in); break;
    case 14: dims = random_dims(in, 5); break;  // any rank
    case 13: for (int64_t& d : dims) d = in.ConsumeIntegralInRange(0, 5); break;  // fixed dims broken
    case 12: {  // a 0-sized tensor with a huge dim beside the 0: must cost nothing
      dims = random_dims(in, 4);
      dims.push_back(0);
      dims.push_back(in.PickValueInArray({int64_t{1} << 40, int64_t{1} << 62, INT64_MAX}));
      std::swap(dims[in.ConsumeIntegralInRange<size_t>(0, dims.size() - 1)], dims.back());
      break;
    }
    case 11: return Value::of(Tensor{});  // no dtype, no storage
    case 10: return Value{};
    case 9: return Value::of_optional(nullptr);
    case 8: {  // a sequence, its items of any dtype and its element type possibly lying
      std::vector<Tensor> items(in.ConsumeIntegralInRange(0, 3));
      for (Tensor& t : items) t = random_tensor(in, in.ConsumeBool() ? dtype : random_dtype(in), dims);
      return Value::of_sequence(std::move(items), in.ConsumeBool() ? dtype : random_dtype(in));
    }
    default: break;
  }
  Tensor t = random_tensor(in, dtype, dims);
  if (one_in(in, 8)) t = at_offset(t, in.ConsumeIntegralInRange<size_t>(1, 16));
  if (io.type == "sequence") return Value::of_sequence({t}, dtype);
  if (io.type == "optional") return Value::of_optional(std::make_shared<Value>(Value::of(t)));
  return Value::of(t);
}

}  // namespace
}  // namespace twinrt::fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  twinrt::fuzz::use_small_limits();
  twinrt::fuzz::sessions();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace twinrt;
  FuzzedDataProvider in(data, size);
  auto& all = fuzz::sessions();
  const fuzz::Loaded& loaded = all[in.ConsumeIntegralInRange<size_t>(0, all.size() - 1)];
  std::map<std::string, Value> feeds;
  for (const IoInfo& io : loaded.session->inputs()) {
    int name = in.ConsumeIntegralInRange(0, 15);
    if (name == 15) continue;  // missing
    std::string key = name == 14 ? io.name + "_" : name == 13 ? "" : io.name;  // unknown names
    feeds[key] = fuzz::feed_for(in, io);
  }
  if (fuzz::one_in(in, 16)) feeds["extra"] = fuzz::feed_for(in, loaded.session->inputs()[0]);
  (void)loaded.session->run(feeds);
  // Whatever that run did, the session must still give its old answer.
  if (!fuzz::same_result(loaded.session->run(loaded.fixed_feed), loaded.baseline)) __builtin_trap();
  return 0;
}
