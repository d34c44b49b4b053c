// A complete program using the twinrt C++ API: load a model, fill every input with ones,
// run it, print each output's shape. Build: see docs/api.md.
#include <iostream>
#include <map>

#include "twinrt/session.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: run_model MODEL.onnx\n";
    return 2;
  }
  twinrt::SessionOptions options;
  options.mode = twinrt::Mode::kReference;  // same bits natively and in WebAssembly
  auto session = twinrt::Session::load(argv[1], options);
  if (!session) {
    std::cerr << "cannot load " << argv[1] << ": " << session.status().message() << "\n";
    return 2;
  }

  std::map<std::string, twinrt::Value> feeds;
  for (const twinrt::IoInfo& in : (*session)->inputs()) {
    std::cout << "input  " << in.name << " " << in.describe() << "\n";
    if (in.type != "tensor" || in.dtype != twinrt::DataType::kFloat) {
      std::cerr << "this example only feeds float32 tensors\n";
      return 2;
    }
    std::vector<int64_t> dims;
    for (int64_t d : in.dims) dims.push_back(d < 0 ? 1 : d);  // symbolic dims -> 1
    auto t = twinrt::Tensor::create(twinrt::DataType::kFloat, dims);
    if (!t) {
      std::cerr << t.status().message() << "\n";
      return 2;
    }
    for (int64_t i = 0; i < t->numel(); ++i) t->data<float>()[i] = 1.0f;
    feeds[in.name] = twinrt::Value::of(std::move(t).value());
  }

  auto outputs = (*session)->run(feeds);
  if (!outputs) {
    std::cerr << "run failed: " << outputs.status().message() << "\n";
    return 1;
  }
  for (const auto& [name, value] : *outputs)
    if (value.is_tensor())
      std::cout << "output " << name << " " << twinrt::dtype_name(value.tensor.dtype())
                << twinrt::shape_to_string(value.tensor.shape()) << "\n";
  return 0;
}
