// speech_segments: per-chunk speech probabilities -> speech segments, one chunk per run.
//   prob         float32 with one element (the VAD model's output for this chunk)
//   span         int64[2]: the chunk's samples [start, end) (audio_chunk's output; empty past
//                the end of the audio)
//   sample_rate  int64 scalar or [1]
//   tracker      int64[3] (carried state): triggered (0/1), speech start, tentative end
//                (0: none), in samples
//   closed       float32[K,2] (carried state): the segments finished so far, in seconds
//   -> segments float32[K',2]: `closed`, plus the segment still open (ending at this chunk's
//      end) once it is long enough; tracker, closed: the state for the next run.
// Hysteresis as in Silero VAD's get_speech_timestamps: speech starts at a chunk whose
// probability is >= threshold; it ends at the first chunk below neg_threshold that is
// followed by min_silence seconds without a chunk >= threshold. Segments not longer than
// min_speech are dropped; one still open when the audio ends closes at the end.
#include <vector>

#include "pipeline/step.h"

namespace twinrt::pipeline {
namespace {

struct Tracker {
  int64_t triggered = 0, start = 0, temp_end = 0;
};

class SpeechSegments final : public Step {
 public:
  SpeechSegments(double threshold, double neg_threshold, double min_silence, double min_speech)
      : threshold_(threshold), neg_threshold_(neg_threshold), min_silence_(min_silence), min_speech_(min_speech) {}

  Result<ValueMap> run(const ValueMap& inputs) const override {
    ASSIGN_OR_RETURN(Tensor span_t, tensor_input(inputs, "span", DataType::kInt64, 1));
    const int64_t* span = span_t.data<int64_t>();
    if (span_t.numel() != 2 || span[0] < 0 || span[1] < span[0])
      return invalid_argument("input 'span' must be int64[2] with 0 <= start <= end");
    ASSIGN_OR_RETURN(double rate, sample_rate(inputs));
    ASSIGN_OR_RETURN(Tracker t, tracker(inputs));
    ASSIGN_OR_RETURN(std::vector<float> closed, closed_segments(inputs));
    const double min_silence = min_silence_ * rate, min_speech = min_speech_ * rate;
    const auto close = [&](int64_t end) {
      if (static_cast<double>(end - t.start) > min_speech) {
        closed.push_back(static_cast<float>(static_cast<double>(t.start) / rate));
        closed.push_back(static_cast<float>(static_cast<double>(end) / rate));
      }
      t = Tracker{};
    };
    if (span[0] == span[1]) {  // past the end of the audio: close what is open at the end
      if (t.triggered) close(span[0]);
    } else {
      ASSIGN_OR_RETURN(Tensor prob_t, tensor_input(inputs, "prob", DataType::kFloat, tensor_rank(inputs, "prob")));
      if (prob_t.numel() != 1) return invalid_argument("input 'prob' must hold one probability, got " + shape_to_string(prob_t.shape()));
      const double p = prob_t.data<float>()[0];
      if (p >= threshold_) t.temp_end = 0;
      if (p >= threshold_ && !t.triggered) {
        t.triggered = 1;
        t.start = span[0];
      } else if (p < neg_threshold_ && t.triggered) {
        if (!t.temp_end) t.temp_end = span[0];  // a chunk start after the speech start, so never 0
        if (static_cast<double>(span[0] - t.temp_end) >= min_silence) close(t.temp_end);
      }
    }
    std::vector<float> segments = closed;
    if (t.triggered && static_cast<double>(span[1] - t.start) > min_speech) {
      segments.push_back(static_cast<float>(static_cast<double>(t.start) / rate));
      segments.push_back(static_cast<float>(static_cast<double>(span[1]) / rate));
    }
    ASSIGN_OR_RETURN(Tensor tracker_out, Tensor::create(DataType::kInt64, {3}));
    const int64_t state[3] = {t.triggered, t.start, t.temp_end};
    std::copy(state, state + 3, tracker_out.data<int64_t>());
    ASSIGN_OR_RETURN(Tensor closed_out, segment_tensor(closed));
    ASSIGN_OR_RETURN(Tensor segments_out, segment_tensor(segments));
    return ValueMap{{"segments", PipelineValue::single(std::move(segments_out))},
                    {"tracker", PipelineValue::single(std::move(tracker_out))},
                    {"closed", PipelineValue::single(std::move(closed_out))}};
  }

 private:
  static int64_t tensor_rank(const ValueMap& inputs, const std::string& port) {
    auto it = inputs.find(port);
    return it == inputs.end() || it->second.is_list ? 0 : it->second.tensor().rank();
  }

  static Result<double> sample_rate(const ValueMap& inputs) {
    ASSIGN_OR_RETURN(Tensor t, tensor_input(inputs, "sample_rate", DataType::kInt64, tensor_rank(inputs, "sample_rate")));
    if (t.numel() != 1 || t.rank() > 1 || t.data<int64_t>()[0] <= 0)
      return invalid_argument("input 'sample_rate' must be one positive int64 (a scalar or [1])");
    return static_cast<double>(t.data<int64_t>()[0]);
  }

  static Result<Tracker> tracker(const ValueMap& inputs) {
    ASSIGN_OR_RETURN(Tensor t, tensor_input(inputs, "tracker", DataType::kInt64, 1));
    const int64_t* v = t.data<int64_t>();
    if (t.numel() != 3 || (v[0] != 0 && v[0] != 1) || v[1] < 0 || v[2] < 0)
      return invalid_argument("input 'tracker' must be int64[3]: triggered (0/1), start >= 0, tentative end >= 0");
    return Tracker{v[0], v[1], v[2]};
  }

  static Result<std::vector<float>> closed_segments(const ValueMap& inputs) {
    ASSIGN_OR_RETURN(Tensor t, tensor_input(inputs, "closed", DataType::kFloat, 2));
    if (t.dim(1) != 2) return invalid_argument("input 'closed' must be float32[K,2], got " + shape_to_string(t.shape()));
    return std::vector<float>(t.data<float>(), t.data<float>() + t.numel());
  }

  static Result<Tensor> segment_tensor(const std::vector<float>& flat) {
    ASSIGN_OR_RETURN(Tensor t, Tensor::create(DataType::kFloat, {static_cast<int64_t>(flat.size() / 2), 2}));
    std::copy(flat.begin(), flat.end(), t.data<float>());
    return t;
  }

  double threshold_, neg_threshold_, min_silence_, min_speech_;
};

Result<std::unique_ptr<Step>> create(const nlohmann::json& params, const StepContext&) {
  TRY(check_param_keys(params, {"threshold", "neg_threshold", "min_silence", "min_speech"}));
  ASSIGN_OR_RETURN(double threshold, number_param(params, "threshold", 0.5));
  if (!(threshold > 0 && threshold <= 1))
    return invalid_argument("parameter 'threshold' must be in (0, 1], got " + std::to_string(threshold));
  ASSIGN_OR_RETURN(double neg_threshold, number_param(params, "neg_threshold", std::max(threshold - 0.15, 0.01)));
  if (!(neg_threshold > 0 && neg_threshold <= threshold))
    return invalid_argument("parameter 'neg_threshold' must be in (0, threshold], got " + std::to_string(neg_threshold));
  ASSIGN_OR_RETURN(double min_silence, number_param(params, "min_silence", 0.1));
  ASSIGN_OR_RETURN(double min_speech, number_param(params, "min_speech", 0.25));
  if (!(min_silence >= 0 && min_silence <= 3600))
    return invalid_argument("parameter 'min_silence' must be seconds in [0, 3600], got " + std::to_string(min_silence));
  if (!(min_speech >= 0 && min_speech <= 3600))
    return invalid_argument("parameter 'min_speech' must be seconds in [0, 3600], got " + std::to_string(min_speech));
  return std::unique_ptr<Step>(new SpeechSegments(threshold, neg_threshold, min_silence, min_speech));
}

TWINRT_REGISTER_STEP(speech_segments, {"speech_segments",
                                       "prob float32 (one), span int64[2], sample_rate int64, tracker int64[3], "
                                       "closed float32[K,2] -> segments float32[K,2] (seconds), tracker, closed",
                                       {"prob", "span", "sample_rate", "tracker", "closed"},
                                       {"segments", "tracker", "closed"}, {}, create});

}  // namespace
}  // namespace twinrt::pipeline
