// Session-level behaviour: input checking, error messages, concurrent runs, modes.
#include <gtest/gtest.h>

#include <cstring>
#include <thread>

#include "twinrt/session.h"

namespace twinrt {
namespace {

const char* kConvModel = "/usr/share/libonnx-testdata/data/node/test_basic_conv_with_padding/model.onnx";

std::unique_ptr<Session> load_conv(Mode mode = Mode::kDefault, int threads = 1) {
  SessionOptions o;
  o.mode = mode;
  o.threads = threads;
  auto s = Session::load(kConvModel, o);
  if (!s) ADD_FAILURE() << s.status().message();
  return s ? std::move(s).value() : nullptr;
}

Tensor ramp(std::vector<int64_t> shape) {
  Tensor t = Tensor::create(DataType::kFloat, std::move(shape)).value();
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = static_cast<float>(i % 7) - 3.0f;
  return t;
}

std::map<std::string, Value> conv_feeds() {
  return {{"x", Value::of(ramp({1, 1, 5, 5}))}, {"W", Value::of(ramp({1, 1, 3, 3}))}};
}

TEST(Session, ReportsDeclaredInputsAndOutputs) {
  auto s = load_conv();
  ASSERT_TRUE(s);
  ASSERT_EQ(s->inputs().size(), 2u);
  EXPECT_EQ(s->inputs()[0].name, "x");
  EXPECT_EQ(s->inputs()[0].describe(), "float32[1,1,5,5]");
  ASSERT_EQ(s->outputs().size(), 1u);
}

TEST(Session, MissingFileIsAnIoErrorNamingThePath) {
  auto s = Session::load("/nonexistent/model.onnx", {});
  ASSERT_FALSE(s);
  EXPECT_NE(s.status().message().find("/nonexistent/model.onnx"), std::string::npos);
}

TEST(Session, GarbageBytesAreRejected) {
  const char junk[] = "this is not an onnx model at all";
  auto s = Session::load_bytes(junk, sizeof junk, {});
  EXPECT_FALSE(s);
}

TEST(Session, BadFeedsGiveClearErrors) {
  auto s = load_conv();
  ASSERT_TRUE(s);
  auto missing = s->run({{"x", Value::of(ramp({1, 1, 5, 5}))}});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.status().message().find("'W'"), std::string::npos);

  auto feeds = conv_feeds();
  feeds["y"] = Value::of(ramp({1}));
  auto unknown = s->run(feeds);
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.status().message().find("no input named 'y'"), std::string::npos);

  feeds = conv_feeds();
  feeds["x"] = Value::of(ramp({1, 1, 4, 5}));
  auto shape = s->run(feeds);
  ASSERT_FALSE(shape);
  EXPECT_NE(shape.status().message().find("[1,1,4,5]"), std::string::npos);

  feeds = conv_feeds();
  feeds["x"] = Value::of(Tensor::create(DataType::kInt32, {1, 1, 5, 5}).value());
  auto dtype = s->run(feeds);
  ASSERT_FALSE(dtype);
  EXPECT_NE(dtype.status().message().find("int32"), std::string::npos);
}

TEST(Session, ConcurrentRunsAgreeWithASingleRun) {
  auto s = load_conv(Mode::kDefault, 2);
  ASSERT_TRUE(s);
  auto want = s->run(conv_feeds());
  ASSERT_TRUE(want) << want.status().message();
  const Tensor& w = want->begin()->second.tensor;
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        auto got = s->run(conv_feeds());
        if (!got || std::memcmp(got->begin()->second.tensor.raw(), w.raw(), w.nbytes()) != 0) ++mismatches[t];
      }
    });
  for (auto& th : threads) th.join();
  for (int m : mismatches) EXPECT_EQ(m, 0);
}

TEST(Session, ReferenceModeDoesNotDependOnThreadCount) {
  auto one = load_conv(Mode::kReference, 1);
  auto two = load_conv(Mode::kReference, 2);
  ASSERT_TRUE(one && two);
  auto a = one->run(conv_feeds());
  auto b = two->run(conv_feeds());
  ASSERT_TRUE(a && b);
  const Tensor& ta = a->begin()->second.tensor;
  const Tensor& tb = b->begin()->second.tensor;
  ASSERT_EQ(ta.shape(), tb.shape());
  EXPECT_EQ(std::memcmp(ta.raw(), tb.raw(), ta.nbytes()), 0);
}

}  // namespace
}  // namespace twinrt
