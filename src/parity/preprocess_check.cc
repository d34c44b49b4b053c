#include "parity/preprocess_check.h"

#include "parity/input_sources.h"

namespace twinrt::parity {

Result<std::vector<PreprocessVariant>> preprocess_check(const std::string& engine,
                                                        const engines::EngineOptions& options,
                                                        const std::string& model_path,
                                                        const std::vector<IoInfo>& model_inputs,
                                                        const InputSpec& spec,
                                                        const engines::TensorMap& correct_outputs) {
  if (spec.images.empty() || !spec.preprocess)
    return invalid_argument("--preprocess-check needs an --image and a --preprocess spec");
  ASSIGN_OR_RETURN(InputSet correct, build_input_set(model_inputs, spec));
  ASSIGN_OR_RETURN(auto decls, tensor_declarations(model_inputs, spec.dims));
  InputBindings bindings;
  bindings.decls = &decls;
  bindings.bound.resize(decls.size());
  ASSIGN_OR_RETURN(auto target, image_target(spec.images.front(), bindings));
  const std::string& input_name = decls[target.first].name;
  ASSIGN_OR_RETURN(auto variants, mistaken_variants(target.second, *spec.preprocess));

  ASSIGN_OR_RETURN(auto runner, engines::make_engine(engine, options));
  TRY(runner->load(model_path));
  std::vector<PreprocessVariant> result;
  for (auto& [mistake, tensor] : variants) {
    engines::TensorMap feeds = correct.cases.front().tensors;
    feeds[input_name] = std::move(tensor);
    ASSIGN_OR_RETURN(engines::TensorMap outputs, runner->run(feeds, {}));
    for (const auto& [name, expected] : correct_outputs) {
      auto got = outputs.find(name);
      if (got == outputs.end()) continue;
      ASSIGN_OR_RETURN(TensorMetrics m, compare_tensors(expected, got->second, CompareOptions{}));
      result.push_back({mistake, name, std::move(m)});
    }
  }
  return result;
}

}  // namespace twinrt::parity
