#include "runtime/execute.h"

#include <chrono>

namespace twinrt {

const Value* KernelContext::input_value(size_t i) const {
  if (i >= inputs_.size() || !inputs_[i]) return nullptr;
  return inputs_[i]->kind == Value::Kind::kNone ? nullptr : inputs_[i];
}

Result<Tensor*> KernelContext::output(size_t i, DataType dtype, std::vector<int64_t> shape) {
  return allocate_output(i, dtype, std::move(shape), true);
}

Result<Tensor*> KernelContext::output_for_overwrite(size_t i, DataType dtype, std::vector<int64_t> shape) {
  return allocate_output(i, dtype, std::move(shape), false);
}

Result<Tensor*> KernelContext::allocate_output(size_t i, DataType dtype, std::vector<int64_t> shape, bool zero) {
  const bool planned = output_requested(i);
  if (options_.arena && planned) {
    ASSIGN_OR_RETURN(std::optional<Tensor> placed, options_.arena->place(step_, i, dtype, shape, zero));
    if (placed) return place_output(i, std::move(*placed));
  }
  ASSIGN_OR_RETURN(Tensor t, zero ? Tensor::create(dtype, std::move(shape))
                                  : Tensor::create_for_overwrite(dtype, std::move(shape)));
  if (options_.recorder && planned) options_.recorder->on_output(step_, i, t);
  return place_output(i, std::move(t));
}

Tensor* KernelContext::place_output(size_t i, Tensor t) {
  Value& slot = out_slot(i);
  slot = Value::of(std::move(t));
  return &slot.tensor;
}

Result<std::vector<Value>> KernelContext::run_subgraph(const Subgraph& g, std::vector<Value> inputs) {
  if (inputs.size() != g.input_slots.size())
    return invalid_model("subgraph '" + g.name + "' takes " + std::to_string(g.input_slots.size()) +
                         " inputs, given " + std::to_string(inputs.size()));
  std::vector<Value> outer;
  outer.reserve(g.outer_names.size());
  for (const auto& name : g.outer_names) {
    const Value* found = nullptr;
    for (const auto& [n, v] : implicit_)
      if (n == name) found = v;
    if (!found) return internal_error("outer value '" + name + "' was not bound");
    outer.push_back(*found);
  }
  ExecOptions nested = options_;  // bodies allocate on the heap
  nested.arena = nullptr;
  nested.recorder = nullptr;
  nested.step_ms = nullptr;  // a body's time counts to the node that runs it
  return execute(g, std::move(inputs), std::move(outer), nested);
}

namespace {

// A value that leaves the run must not view the arena, which the next run overwrites.
Status detach_from_arena(Value& v) {
  if (v.is_tensor() && ArenaRun::in_arena(v.tensor)) {
    ASSIGN_OR_RETURN(v.tensor, v.tensor.clone());
  } else if (v.is_sequence()) {
    for (Tensor& t : v.sequence) {
      if (!ArenaRun::in_arena(t)) continue;
      ASSIGN_OR_RETURN(t, t.clone());
    }
  } else if (v.is_optional() && v.optional) {
    Value inner = *v.optional;
    TRY(detach_from_arena(inner));
    v.optional = std::make_shared<const Value>(std::move(inner));
  }
  return Status::ok();
}

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

  auto slot_ptr = [&](int s) { return s < 0 ? nullptr : &slots[static_cast<size_t>(s)]; };
  for (size_t index = 0; index < g.steps.size(); ++index) {
    const Step& step = g.steps[index];
    std::vector<const Value*> in;
    in.reserve(step.inputs.size());
    for (int s : step.inputs) in.push_back(slot_ptr(s));
    std::vector<Value*> out;
    out.reserve(step.outputs.size());
    for (int s : step.outputs) out.push_back(slot_ptr(s));
    std::vector<std::pair<std::string, const Value*>> implicit;
    for (const auto& [name, s] : step.implicit_inputs) implicit.emplace_back(name, slot_ptr(s));

    KernelContext ctx(std::move(in), std::move(out), std::move(implicit), options);
    ctx.set_step(static_cast<int>(index));
    const auto start = options.step_ms ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    Status st = step.kernel->run(ctx);
    if (options.step_ms)
      (*options.step_ms)[index] +=
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
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
    if (options.recorder) options.recorder->after_step(static_cast<int>(index));
  }

  std::vector<Value> out;
  out.reserve(g.output_slots.size());
  for (int s : g.output_slots) out.push_back(slots[static_cast<size_t>(s)]);
  if (options.arena)
    for (Value& v : out) TRY(detach_from_arena(v));
  return out;
}

}  // namespace twinrt
