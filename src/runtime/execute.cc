#include "runtime/execute.h"

namespace twinrt {
namespace {

class StepContext final : public RunContext {
 public:
  StepContext(const Step& step, std::vector<Value>& slots, const ExecOptions& options)
      : step_(step), slots_(slots), options_(options) {}

  size_t num_inputs() const override { return step_.inputs.size(); }
  const Value* input_value(size_t i) const override {
    if (i >= step_.inputs.size() || step_.inputs[i] < 0) return nullptr;
    const Value& v = slots_[static_cast<size_t>(step_.inputs[i])];
    return v.kind == Value::Kind::kNone ? nullptr : &v;
  }
  size_t num_outputs() const override { return step_.outputs.size(); }
  bool output_requested(size_t i) const override {
    return i < step_.outputs.size() && step_.outputs[i] >= 0;
  }
  Result<Tensor*> output(size_t i, DataType dtype, std::vector<int64_t> shape) override {
    ASSIGN_OR_RETURN(Tensor t, Tensor::create(dtype, std::move(shape)));
    Value& slot = out_slot(i);
    slot = Value::of(std::move(t));
    return &slot.tensor;
  }
  void set_output(size_t i, Value v) override { out_slot(i) = std::move(v); }
  Mode mode() const override { return options_.mode; }
  ThreadPool& pool() const override { return *options_.pool; }

  Result<std::vector<Value>> run_subgraph(const Subgraph& g, std::vector<Value> inputs) override {
    if (inputs.size() != g.input_slots.size())
      return invalid_model("subgraph '" + g.name + "' takes " + std::to_string(g.input_slots.size()) +
                           " inputs, given " + std::to_string(inputs.size()));
    std::vector<Value> outer;
    outer.reserve(g.outer_names.size());
    for (const auto& name : g.outer_names) {
      const Value* found = nullptr;
      for (const auto& [n, slot] : step_.implicit_inputs)
        if (n == name) found = &slots_[static_cast<size_t>(slot)];
      if (!found) return internal_error("outer value '" + name + "' was not bound");
      outer.push_back(*found);
    }
    return execute(g, std::move(inputs), std::move(outer), options_);
  }

 private:
  Value& out_slot(size_t i) {
    // Writes to an omitted output land in a scratch value that is dropped.
    if (!output_requested(i)) return scratch_;
    return slots_[static_cast<size_t>(step_.outputs[i])];
  }
  const Step& step_;
  std::vector<Value>& slots_;
  const ExecOptions& options_;
  Value scratch_;
};

}  // namespace

Result<std::vector<Value>> execute(const Subgraph& g, std::vector<Value> inputs,
                                   std::vector<Value> outer, const ExecOptions& options,
                                   std::vector<std::pair<int, Value>> overrides) {
  std::vector<Value> slots(static_cast<size_t>(g.num_slots));
  for (const auto& [slot, v] : g.constants) slots[static_cast<size_t>(slot)] = v;
  for (auto& [slot, v] : overrides) slots[static_cast<size_t>(slot)] = std::move(v);
  for (size_t i = 0; i < inputs.size() && i < g.input_slots.size(); ++i)
    slots[static_cast<size_t>(g.input_slots[i])] = std::move(inputs[i]);
  for (size_t i = 0; i < outer.size() && i < g.outer_slots.size(); ++i)
    slots[static_cast<size_t>(g.outer_slots[i])] = std::move(outer[i]);

  for (const Step& step : g.steps) {
    StepContext ctx(step, slots, options);
    Status st = step.kernel->run(ctx);
    if (!st.is_ok()) {
      const std::string where = step.node->describe() + ": ";
      return st.message().rfind(where, 0) == 0 ? st : st.with_context(where);
    }
    for (size_t i = 0; i < step.outputs.size(); ++i) {
      int s = step.outputs[i];
      if (s >= 0 && slots[static_cast<size_t>(s)].kind == Value::Kind::kNone)
        return internal_error(step.node->describe() + ": kernel did not produce output '" +
                              step.node->outputs[i] + "'");
    }
    for (int s : step.free_after) slots[static_cast<size_t>(s)] = Value{};
  }

  std::vector<Value> out;
  out.reserve(g.output_slots.size());
  for (int s : g.output_slots) out.push_back(slots[static_cast<size_t>(s)]);
  return out;
}

}  // namespace twinrt
