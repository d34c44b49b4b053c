// audio_chunk: the audio chunk for the current run of a streaming pipeline.
//   audio     uint8[n] (a WAV file's bytes: 16-bit PCM, mono, at sample_rate) or float32[n]
//             (samples at sample_rate)
//   position  int64[1]: the first sample of this chunk (carried state: next_position of the
//             previous run, zeros on the first)
//   -> chunk float32[1, context + chunk] (zeros before the start and after the end),
//      span int64[2] (the chunk's samples inside the audio: [start, end), empty past the end),
//      next_position int64[1], sample_rate int64 scalar (for models that take it, e.g. Silero)
// Each run decodes only the samples it needs, so streaming a long file stays linear. The
// `context` samples before the chunk are what Silero VAD v5's own wrapper prepends.
#include <cstring>

#include "pipeline/step.h"

namespace twinrt::pipeline {
namespace {

uint32_t le32(const uint8_t* p) { return p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<uint32_t>(p[3]) << 24); }
uint16_t le16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }

// Where a WAV file's 16-bit samples are; every size is checked against the bytes.
Result<std::pair<const uint8_t*, int64_t>> wav_samples(const uint8_t* bytes, size_t size, int sample_rate) {
  const auto bad = [](const std::string& why) { return invalid_argument("input 'audio': " + why); };
  if (size < 12 || std::memcmp(bytes, "RIFF", 4) != 0 || std::memcmp(bytes + 8, "WAVE", 4) != 0)
    return bad("not a WAV file (no RIFF/WAVE header)");
  bool have_format = false;
  for (size_t at = 12; at + 8 <= size;) {
    const uint8_t* chunk = bytes + at;
    const size_t left = size - at - 8;
    // Streaming writers (espeak-ng --stdout) leave the data size unknown: take what is there.
    const size_t length = std::min<size_t>(le32(chunk + 4), left);
    if (std::memcmp(chunk, "fmt ", 4) == 0) {
      if (length < 16) return bad("WAV 'fmt ' chunk too short");
      const uint16_t format = le16(chunk + 8), channels = le16(chunk + 10), bits = le16(chunk + 22);
      const uint32_t rate = le32(chunk + 12);
      if (format != 1 || bits != 16) return bad("the WAV file must be 16-bit PCM, got format " + std::to_string(format) +
                                                ", " + std::to_string(bits) + " bits");
      if (channels != 1) return bad("the WAV file must be mono, got " + std::to_string(channels) + " channels");
      if (rate != static_cast<uint32_t>(sample_rate))
        return bad("the WAV file is " + std::to_string(rate) + " Hz, parameter 'sample_rate' is " +
                   std::to_string(sample_rate) + " (resample it first, e.g. sox in.wav -r " +
                   std::to_string(sample_rate) + " out.wav)");
      have_format = true;
    } else if (std::memcmp(chunk, "data", 4) == 0) {
      if (!have_format) return bad("WAV 'data' before 'fmt '");
      return std::make_pair(chunk + 8, static_cast<int64_t>(length / 2));
    }
    at += 8 + length + (length & 1);  // chunks are padded to an even size
  }
  return bad("the WAV file has no 'data' chunk");
}

class AudioChunk final : public Step {
 public:
  AudioChunk(int sample_rate, int chunk, int context) : sample_rate_(sample_rate), chunk_(chunk), context_(context) {}

  Result<ValueMap> run(const ValueMap& inputs) const override {
    ASSIGN_OR_RETURN(Tensor position_t, tensor_input(inputs, "position", DataType::kInt64, 1));
    if (position_t.numel() != 1) return invalid_argument("input 'position' must be int64[1]");
    const int64_t position = position_t.data<int64_t>()[0];
    if (position < 0 || position > (int64_t{1} << 53))
      return invalid_argument("input 'position' must be a sample index in [0, 2^53], got " + std::to_string(position));
    auto it = inputs.find("audio");
    if (it == inputs.end() || it->second.is_list) return invalid_argument("input 'audio' must be one tensor");
    const Tensor& audio = it->second.tensor();
    // The samples as either 16-bit PCM or floats.
    const uint8_t* pcm = nullptr;
    const float* floats = nullptr;
    int64_t n = 0;
    if (audio.dtype() == DataType::kUInt8 && audio.rank() == 1) {
      ASSIGN_OR_RETURN(auto wav, wav_samples(audio.data<uint8_t>(), static_cast<size_t>(audio.numel()), sample_rate_));
      std::tie(pcm, n) = wav;
    } else if (audio.dtype() == DataType::kFloat && audio.rank() == 1) {
      floats = audio.data<float>();
      n = audio.numel();
    } else {
      return invalid_argument("input 'audio' must be uint8[n] (WAV bytes) or float32[n] (samples), got " +
                              it->second.describe());
    }
    const auto sample = [&](int64_t i) -> float {
      if (i < 0 || i >= n) return 0.0f;
      if (floats) return floats[i];
      return static_cast<float>(static_cast<int16_t>(le16(pcm + 2 * i))) / 32768.0f;
    };
    ASSIGN_OR_RETURN(Tensor chunk, Tensor::create(DataType::kFloat, {1, context_ + chunk_}));
    for (int64_t j = 0; j < context_ + chunk_; ++j) chunk.data<float>()[j] = sample(position - context_ + j);
    ASSIGN_OR_RETURN(Tensor span, Tensor::create(DataType::kInt64, {2}));
    span.data<int64_t>()[0] = std::min(position, n);
    span.data<int64_t>()[1] = std::min(position + chunk_, n);
    ASSIGN_OR_RETURN(Tensor next, Tensor::create(DataType::kInt64, {1}));
    next.data<int64_t>()[0] = position + chunk_;
    ASSIGN_OR_RETURN(Tensor rate, Tensor::create(DataType::kInt64, {}));
    rate.data<int64_t>()[0] = sample_rate_;
    return ValueMap{{"chunk", PipelineValue::single(std::move(chunk))},
                    {"span", PipelineValue::single(std::move(span))},
                    {"next_position", PipelineValue::single(std::move(next))},
                    {"sample_rate", PipelineValue::single(std::move(rate))}};
  }

 private:
  int sample_rate_, chunk_, context_;
};

Result<std::unique_ptr<Step>> create(const nlohmann::json& params, const StepContext&) {
  TRY(check_param_keys(params, {"sample_rate", "chunk", "context"}));
  ASSIGN_OR_RETURN(int sample_rate, int_param(params, "sample_rate", 16000, 1));
  ASSIGN_OR_RETURN(int chunk, int_param(params, "chunk", 512, 1));
  ASSIGN_OR_RETURN(int context, int_param(params, "context", 0, 0));
  return std::unique_ptr<Step>(new AudioChunk(sample_rate, chunk, context));
}

TWINRT_REGISTER_STEP(audio_chunk, {"audio_chunk",
                                   "audio uint8[n] (WAV) or float32[n], position int64[1] -> chunk float32[1,context+chunk], "
                                   "span int64[2], next_position int64[1], sample_rate int64",
                                   {"audio", "position"}, {"chunk", "span", "next_position", "sample_rate"}, {}, create});

}  // namespace
}  // namespace twinrt::pipeline
