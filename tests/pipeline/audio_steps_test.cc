// The streaming audio steps on constructed inputs: audio_chunk's framing (context, the last
// partial chunk, past the end, WAV parsing) and speech_segments' hysteresis across runs.
#include <gtest/gtest.h>

#include <cstring>

#include "pipeline/step.h"

namespace twinrt::pipeline {
namespace {

Result<std::unique_ptr<Step>> make_step(const std::string& name, const std::string& params) {
  return find_step(name)->create(nlohmann::json::parse(params), StepContext{".", "t"});
}

PipelineValue int64s(std::vector<int64_t> shape, std::vector<int64_t> values) {
  return PipelineValue::single(Tensor::from_vector<int64_t>(std::move(shape), values).value());
}

PipelineValue floats(std::vector<int64_t> shape, std::vector<float> values) {
  return PipelineValue::single(Tensor::from_vector<float>(std::move(shape), values).value());
}

// A WAV file's bytes: a 'LIST' chunk of odd size (padded) before 'data', as some writers do.
PipelineValue wav(const std::vector<int16_t>& samples, uint32_t rate, uint16_t channels) {
  std::vector<uint8_t> b;
  const auto put = [&](uint32_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
  };
  const auto tag = [&](const char* t) { b.insert(b.end(), t, t + 4); };
  tag("RIFF"), put(0, 4), tag("WAVE");
  tag("fmt "), put(16, 4), put(1, 2), put(channels, 2), put(rate, 4), put(rate * 2 * channels, 4), put(2 * channels, 2), put(16, 2);
  tag("LIST"), put(3, 4), put(0, 4);  // 3 bytes + 1 pad
  tag("data"), put(static_cast<uint32_t>(samples.size() * 2), 4);
  for (int16_t s : samples) put(static_cast<uint16_t>(s), 2);
  return PipelineValue::single(Tensor::from_vector<uint8_t>({static_cast<int64_t>(b.size())}, b).value());
}

Result<ValueMap> chunk_at(const Step& step, PipelineValue audio, int64_t position) {
  return step.run({{"audio", std::move(audio)}, {"position", int64s({1}, {position})}});
}

TEST(AudioChunk, CutsChunksWithContextAndZerosPastTheEnd) {
  std::vector<float> ramp(1200);
  for (size_t i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<float>(i) / 2048;
  auto step = make_step("audio_chunk", R"({"chunk": 512, "context": 64})");
  ASSERT_TRUE(step.is_ok()) << step.status().message();
  for (int64_t position : {0, 512, 1024, 1536}) {
    auto out = chunk_at(**step, floats({1200}, ramp), position);
    ASSERT_TRUE(out.is_ok()) << out.status().message();
    const Tensor& chunk = out->at("chunk").tensor();
    ASSERT_EQ(chunk.shape(), (std::vector<int64_t>{1, 576}));
    for (int64_t j = 0; j < 576; ++j) {
      const int64_t i = position - 64 + j;  // context first, then the chunk
      EXPECT_EQ(chunk.data<float>()[j], i >= 0 && i < 1200 ? ramp[static_cast<size_t>(i)] : 0.0f) << position << " " << j;
    }
    const int64_t* span = out->at("span").tensor().data<int64_t>();
    EXPECT_EQ(span[0], std::min<int64_t>(position, 1200));
    EXPECT_EQ(span[1], std::min<int64_t>(position + 512, 1200));  // 1024: the partial chunk [1024, 1200)
    EXPECT_EQ(out->at("next_position").tensor().data<int64_t>()[0], position + 512);
    EXPECT_EQ(out->at("sample_rate").tensor().data<int64_t>()[0], 16000);
  }
}

TEST(AudioChunk, ReadsWavFilesAndRejectsOthersClearly) {
  auto step = make_step("audio_chunk", R"({"chunk": 4})");
  ASSERT_TRUE(step.is_ok());
  auto out = chunk_at(**step, wav({100, -32768, 32767, 5, 6}, 16000, 1), 4);
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  const float* chunk = out->at("chunk").tensor().data<float>();
  EXPECT_EQ(chunk[0], 6.0f / 32768);
  EXPECT_EQ(chunk[1], 0.0f);
  EXPECT_EQ(out->at("span").tensor().data<int64_t>()[1], 5);
  EXPECT_EQ(chunk_at(**step, wav({1, 2}, 44100, 1), 0).status().message(),
            "input 'audio': the WAV file is 44100 Hz, parameter 'sample_rate' is 16000 (resample it first, e.g. sox "
            "in.wav -r 16000 out.wav)");
  EXPECT_EQ(chunk_at(**step, wav({1, 2}, 16000, 2), 0).status().message(),
            "input 'audio': the WAV file must be mono, got 2 channels");
  const std::string text = "not audio at all";
  auto bytes = PipelineValue::single(
      Tensor::from_vector<uint8_t>({static_cast<int64_t>(text.size())}, std::vector<uint8_t>(text.begin(), text.end())).value());
  EXPECT_EQ(chunk_at(**step, bytes, 0).status().message(), "input 'audio': not a WAV file (no RIFF/WAVE header)");
  EXPECT_EQ(chunk_at(**step, floats({2}, {0, 0}), -1).status().message(),
            "input 'position' must be a sample index in [0, 2^53], got -1");
  EXPECT_EQ(make_step("audio_chunk", R"({"chunk": 0})").status().message(),
            "parameter 'chunk' must be an integer between 1 and 1000000, got 0");
}

// Runs speech_segments over per-chunk probabilities of 512-sample chunks at 16 kHz, carrying
// its state like a pipeline does; the last chunk has `last_samples` samples. Returns the
// segments after the last chunk and after one more run past the end.
std::pair<std::vector<float>, std::vector<float>> segments_of(const std::vector<float>& probs, int64_t last_samples) {
  auto step = make_step("speech_segments", R"({"threshold": 0.5, "min_silence": 0.1, "min_speech": 0.25})").value();
  PipelineValue tracker = int64s({3}, {0, 0, 0}), closed = floats({0, 2}, {});
  std::vector<float> after_last;
  const int64_t end = static_cast<int64_t>(probs.size() - 1) * 512 + last_samples;
  for (size_t i = 0; i <= probs.size(); ++i) {
    const int64_t start = std::min<int64_t>(static_cast<int64_t>(i) * 512, end);
    auto out = step->run({{"prob", floats({1, 1}, {i < probs.size() ? probs[i] : 0.0f})},
                          {"span", int64s({2}, {start, std::min<int64_t>(start + 512, end)})},
                          {"sample_rate", int64s({}, {16000})},
                          {"tracker", tracker},
                          {"closed", closed}});
    EXPECT_TRUE(out.is_ok()) << out.status().message();
    if (!out.is_ok()) return {};
    tracker = out->at("tracker"), closed = out->at("closed");
    const Tensor& s = out->at("segments").tensor();
    std::vector<float> segments(s.data<float>(), s.data<float>() + s.numel());
    if (i + 1 == probs.size()) after_last = segments;
    if (i == probs.size()) return {after_last, segments};
  }
  return {};
}

TEST(SpeechSegments, HysteresisMinSilenceAndMinSpeech) {
  std::vector<float> probs;
  const auto add = [&](int n, float p) { probs.insert(probs.end(), static_cast<size_t>(n), p); };
  add(5, 0.1f);   // 0-4 silence
  add(20, 0.9f);  // 5-24 speech starts at chunk 5
  add(2, 0.2f);   // 25-26 a pause shorter than min_silence: the segment goes on
  add(10, 0.9f);  // 27-36
  add(5, 0.4f);   // 37-41 between neg_threshold (0.35) and threshold: still speech
  add(10, 0.1f);  // 42-51 silence: ends at chunk 42 once 0.1 s (4 chunks) have passed
  add(3, 0.9f);   // 52-54 a burst of 96 ms: shorter than min_speech, dropped
  add(10, 0.1f);  // 55-64
  add(10, 0.9f);  // 65-74 speech until the end; chunk 74 has 100 samples
  const auto [after_last, after_end] = segments_of(probs, 100);
  const std::vector<float> expected = {2560 / 16000.0f, 21504 / 16000.0f, 33280 / 16000.0f, 37988 / 16000.0f};
  EXPECT_EQ(after_last, expected);  // the open segment ends where the audio does
  EXPECT_EQ(after_end, expected);
}

TEST(SpeechSegments, RejectsBadParametersAndInputs) {
  EXPECT_EQ(make_step("speech_segments", R"({"threshold": 1.5})").status().message(),
            "parameter 'threshold' must be in (0, 1], got 1.500000");
  EXPECT_EQ(make_step("speech_segments", R"({"threshold": 0.5, "neg_threshold": 0.6})").status().message(),
            "parameter 'neg_threshold' must be in (0, threshold], got 0.600000");
  EXPECT_EQ(make_step("speech_segments", R"({"min_silence": -1})").status().message(),
            "parameter 'min_silence' must be seconds in [0, 3600], got -1.000000");
  EXPECT_EQ(make_step("speech_segments", R"({"min_speach": 1})").status().message(),
            "unknown parameter 'min_speach' (known: threshold, neg_threshold, min_silence, min_speech)");
  auto step = make_step("speech_segments", "{}").value();
  ValueMap inputs = {{"prob", floats({1, 1}, {0.9f})},   {"span", int64s({2}, {0, 512})},
                     {"sample_rate", int64s({}, {16000})}, {"tracker", int64s({3}, {0, 0, 0})},
                     {"closed", floats({1, 3}, {0, 0, 0})}};
  EXPECT_EQ(step->run(inputs).status().message(), "input 'closed' must be float32[K,2], got [1,3]");
  inputs["closed"] = floats({0, 2}, {});
  inputs["span"] = int64s({2}, {512, 0});
  EXPECT_EQ(step->run(inputs).status().message(), "input 'span' must be int64[2] with 0 <= start <= end");
  inputs["span"] = int64s({2}, {0, 512});
  inputs["prob"] = floats({1, 2}, {0.9f, 0.1f});
  EXPECT_EQ(step->run(inputs).status().message(), "input 'prob' must hold one probability, got [1,2]");
}

}  // namespace
}  // namespace twinrt::pipeline
