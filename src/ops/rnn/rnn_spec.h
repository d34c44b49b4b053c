// What RNN, GRU and LSTM share: attributes (direction, hidden_size, activations, clip,
// layout), input validation, and the loaded operands of one run.
//
// Inputs: X, W, R, B?, sequence_lens?, initial_h? (+ initial_c?, P? for LSTM).
// Outputs: Y?, Y_h? (+ Y_c? for LSTM). With layout 0 X is [seq, batch, input], Y
// [seq, dirs, batch, hidden] and the states [dirs, batch, hidden]; with layout 1 (opset
// 14) the batch comes first: X [batch, seq, input], Y [batch, seq, dirs, hidden], states
// [batch, dirs, hidden]. Kernels index the caller's layout directly, without transposes.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "ops/op.h"
#include "ops/rnn/activation.h"

namespace twinrt {

struct RnnSpec {
  int64_t gates = 1;              // gate blocks in W and R: RNN 1, GRU 3, LSTM 4
  int64_t hidden = 0;
  int64_t dirs = 1;
  bool reverse_only = false;      // direction == "reverse"
  size_t activations_per_dir = 1;
  std::vector<RnnActivation> activations;  // activations_per_dir per direction
  std::optional<double> clip;
  bool batch_first = false;       // layout == 1
  bool has_cell_state = false;    // LSTM: initial_c, P, Y_c

  bool reversed(int64_t dir) const { return reverse_only || dir == 1; }
  const RnnActivation& activation(int64_t dir, size_t k) const {
    return activations[static_cast<size_t>(dir) * activations_per_dir + k];
  }
  double clipped(double v) const { return clip ? std::min(std::max(v, -*clip), *clip) : v; }
};

// Reads the shared attributes; `default_activations` are those of one direction.
Result<RnnSpec> parse_rnn_spec(const KernelInit& init, int64_t gates, std::vector<std::string> default_activations,
                               bool has_cell_state);

// Output dtypes and, when X's shape is known, shapes.
void infer_rnn_outputs(const RnnSpec& spec, InferContext& ctx);

// The operands of one run in the compute type S (float for float16/float, double for
// double). float32/double inputs are used in place; float16 ones are converted. Buffers
// are Tensors so that a refused allocation is an error, not an exception.
template <class S>
struct RnnOperands {
  int64_t seq = 0, batch = 0, input = 0;
  Tensor x, w, r;
  Tensor bias;      // [dirs, 2 * gates * hidden]: Wb then Rb; zeros when absent
  Tensor h0, c0;    // initial states in the caller's layout; zeros when absent
  Tensor peephole;  // [dirs, 3 * hidden] (i, o, f); zeros when absent
  std::vector<int64_t> lengths;  // per batch entry; seq when sequence_lens is absent

  size_t x_index(const RnnSpec& s, int64_t t, int64_t b) const {
    return static_cast<size_t>((s.batch_first ? b * seq + t : t * batch + b) * input);
  }
  size_t state_index(const RnnSpec& s, int64_t d, int64_t b) const {
    return static_cast<size_t>((s.batch_first ? b * s.dirs + d : d * batch + b) * s.hidden);
  }
  size_t y_index(const RnnSpec& s, int64_t t, int64_t d, int64_t b) const {
    return static_cast<size_t>((s.batch_first ? (b * seq + t) * s.dirs + d : (t * s.dirs + d) * batch + b) * s.hidden);
  }
  std::vector<int64_t> y_shape(const RnnSpec& s) const {
    return s.batch_first ? std::vector<int64_t>{batch, seq, s.dirs, s.hidden}
                         : std::vector<int64_t>{seq, s.dirs, batch, s.hidden};
  }
  std::vector<int64_t> state_shape(const RnnSpec& s) const {
    return s.batch_first ? std::vector<int64_t>{batch, s.dirs, s.hidden} : std::vector<int64_t>{s.dirs, batch, s.hidden};
  }
};

template <class S>
Result<RnnOperands<S>> load_rnn_operands(const RunContext& ctx, const RnnSpec& spec);

}  // namespace twinrt
