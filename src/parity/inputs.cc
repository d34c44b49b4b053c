// build_input_set: the sources of inputs.h combined into cases. Sources shared by every
// case (--input, --test-data) bind first; --cases or --image then make one case per folder
// or image; what is still unbound is seeded random data, the same in every case.
#include "parity/inputs.h"

#include <charconv>
#include <cmath>
#include <filesystem>

#include "io/input_values.h"
#include "parity/input_sources.h"

namespace twinrt::parity {
namespace {

namespace fs = std::filesystem;

std::string format_number(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

std::string base_name(const std::string& path) {
  return fs::path(path).filename().string();
}

// One case per image: the k-th --image of every input that has images.
Status add_image_cases(const InputSpec& spec, const InputBindings& common, std::vector<InputBindings>& cases,
                       std::vector<std::string>& names) {
  if (!spec.preprocess) return invalid_argument("--image needs --preprocess (resize, mean/std, layout, dtype)");
  std::vector<std::vector<std::string>> images(common.decls->size());
  for (const std::string& arg : spec.images) {
    ASSIGN_OR_RETURN(auto target, image_target(arg, common));
    images[target.first].push_back(target.second);
  }
  size_t count = 0;
  for (size_t i = 0; i < images.size(); ++i) {
    if (images[i].empty()) continue;
    if (count != 0 && images[i].size() != count)
      return invalid_argument("--image: every input with images needs the same number of them ('" +
                              (*common.decls)[i].name + "' has " + std::to_string(images[i].size()) + ", another " +
                              std::to_string(count) + ")");
    count = images[i].size();
  }
  for (size_t k = 0; k < count; ++k) {
    InputBindings b = common;
    std::string name;
    for (size_t i = 0; i < images.size(); ++i) {
      if (images[i].empty()) continue;
      const std::string& path = images[i][k];
      ASSIGN_OR_RETURN(Tensor t, load_image(path, *spec.preprocess));
      const ir::ValueInfo& decl = (*common.decls)[i];
      Status fits = io::check_declared_tensor(t, decl.type, "input '" + decl.name + "' from image '" + path + "'");
      if (!fits) return fits.with_context("--preprocess does not fit the model: ");
      TRY(b.bind(i, std::move(t), path));
      name += (name.empty() ? "" : "+") + base_name(path);
    }
    cases.push_back(std::move(b));
    names.push_back(name);
  }
  return Status::ok();
}

Status add_folder_cases(const std::string& dir, const InputBindings& common, std::vector<InputBindings>& cases,
                        std::vector<std::string>& names) {
  ASSIGN_OR_RETURN(std::vector<std::string> folders, list_case_folders(dir));
  for (const std::string& folder : folders) {
    InputBindings b = common;
    TRY(bind_case_folder(folder, b));
    cases.push_back(std::move(b));
    names.push_back(base_name(folder));
  }
  return Status::ok();
}

// An input left unbound by some cases but not all is a case folder missing a file.
Status check_cases_agree(const std::vector<InputBindings>& cases, const std::vector<std::string>& names) {
  for (size_t i = 0; i < cases[0].bound.size(); ++i)
    for (size_t c = 1; c < cases.size(); ++c)
      if (cases[c].bound[i].has_value() != cases[0].bound[i].has_value()) {
        const size_t missing = cases[c].bound[i] ? 0 : c;
        return invalid_argument("--cases: case '" + names[missing] + "' has no value for input '" +
                                (*cases[0].decls)[i].name + "' (expected input_" + std::to_string(i) + ".pb or " +
                                (*cases[0].decls)[i].name + ".npy) while other cases have one");
      }
  return Status::ok();
}

// Symbolic dims of random inputs: --dim first, then the sizes of given tensors.
std::map<std::string, int64_t> known_dims(const InputSpec& spec, const InputBindings& b) {
  std::map<std::string, int64_t> dims = spec.dims;
  for (size_t i = 0; i < b.bound.size(); ++i) {
    const auto& shape = (*b.decls)[i].type.shape;
    if (!b.bound[i] || !shape || shape->size() != static_cast<size_t>(b.bound[i]->tensor.rank())) continue;
    for (size_t d = 0; d < shape->size(); ++d)
      if (!(*shape)[d].symbol.empty()) dims.emplace((*shape)[d].symbol, b.bound[i]->tensor.dim(static_cast<int64_t>(d)));
  }
  return dims;
}

std::string describe(const InputSpec& spec, size_t case_count,
                     const std::vector<std::string>& random_inputs) {
  std::vector<std::string> parts;
  if (!spec.cases_dir.empty()) parts.push_back(std::to_string(case_count) + " cases from " + spec.cases_dir);
  if (spec.images.size() == 1) parts.push_back("image " + spec.images.front());
  else if (!spec.images.empty()) parts.push_back(std::to_string(spec.images.size()) + " images, first " + spec.images.front());
  if (!spec.test_data_dir.empty()) parts.push_back("test data " + spec.test_data_dir);
  for (const std::string& f : spec.files) parts.push_back(f);
  if (!random_inputs.empty()) {
    std::string r = "random ";
    for (size_t i = 0; i < random_inputs.size(); ++i) r += (i ? "," : "") + random_inputs[i];
    r += " (seed " + std::to_string(spec.seed);
    for (const auto& [name, range] : spec.ranges)
      r += ", " + name + "=" + format_number(range.first) + ":" + format_number(range.second);
    parts.push_back(r + ")");
  }
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : "; ") + p;
  return s.empty() ? "no inputs" : s;
}

}  // namespace

Result<std::pair<std::string, std::pair<double, double>>> parse_range(const std::string& flag) {
  const auto bad = [&] { return invalid_argument("--range expects NAME=LO:HI with LO < HI, got '" + flag + "'"); };
  const size_t eq = flag.find('=');
  if (eq == std::string::npos || eq == 0) return bad();
  const std::string value = flag.substr(eq + 1);
  const size_t colon = value.find(':');
  if (colon == std::string::npos) return bad();
  double bounds[2] = {0, 0};
  const std::string texts[2] = {value.substr(0, colon), value.substr(colon + 1)};
  for (int k = 0; k < 2; ++k) {
    const char* end = texts[k].data() + texts[k].size();
    auto [ptr, ec] = std::from_chars(texts[k].data(), end, bounds[k]);
    if (texts[k].empty() || ec != std::errc() || ptr != end || !std::isfinite(bounds[k])) return bad();
  }
  if (!(bounds[0] < bounds[1])) return bad();
  return std::pair{flag.substr(0, eq), std::pair{bounds[0], bounds[1]}};
}

Result<InputSet> build_input_set(const std::vector<IoInfo>& model_inputs, const InputSpec& spec) {
  ASSIGN_OR_RETURN(std::vector<ir::ValueInfo> decls, tensor_declarations(model_inputs, spec.dims));
  if (!spec.cases_dir.empty() && !spec.images.empty())
    return invalid_argument("give either --cases or --image, not both");
  if (spec.preprocess && spec.images.empty()) return invalid_argument("--preprocess is given but no --image");
  InputBindings common{&decls, std::vector<std::optional<BoundTensor>>(decls.size())};
  if (!spec.test_data_dir.empty()) TRY(bind_test_data(spec.test_data_dir, common));
  for (const std::string& arg : spec.files) TRY(bind_input_file(arg, common));

  std::vector<InputBindings> cases;
  std::vector<std::string> names;
  if (!spec.cases_dir.empty()) {
    TRY(add_folder_cases(spec.cases_dir, common, cases, names));
    TRY(check_cases_agree(cases, names));
  } else if (!spec.images.empty()) {
    TRY(add_image_cases(spec, common, cases, names));
  } else {
    cases.push_back(common);
    names.push_back(!spec.test_data_dir.empty() ? base_name(spec.test_data_dir)
                    : spec.files.empty()         ? "random"
                                                 : "files");
  }

  for (const auto& [name, range] : spec.ranges) {
    ASSIGN_OR_RETURN(size_t index, common.index_of(name, "--range"));
    if (cases[0].bound[index])
      return invalid_argument("--range " + name + ": the input is not random (given by '" +
                              cases[0].bound[index]->source + "')");
  }
  const std::map<std::string, int64_t> dims = known_dims(spec, cases[0]);
  std::vector<std::string> random_inputs;
  for (size_t i = 0; i < decls.size(); ++i) {
    if (cases[0].bound[i]) continue;
    std::optional<io::ValueRange> range;
    if (auto r = spec.ranges.find(decls[i].name); r != spec.ranges.end())
      range = io::ValueRange{r->second.first, r->second.second};
    ASSIGN_OR_RETURN(Value v, io::random_value(decls[i].type, dims, io::derive_seed(spec.seed, i), decls[i].name, range));
    for (InputBindings& c : cases) TRY(c.bind(i, v.tensor, "random"));
    random_inputs.push_back(decls[i].name);
  }

  InputSet set;
  for (size_t c = 0; c < cases.size(); ++c) {
    InputCase input_case{names[c], {}, {}};
    for (size_t i = 0; i < decls.size(); ++i) {
      input_case.tensors[decls[i].name] = cases[c].bound[i]->tensor;
      input_case.sources[decls[i].name] = cases[c].bound[i]->source;
    }
    set.cases.push_back(std::move(input_case));
  }
  set.description = describe(spec, cases.size(), random_inputs);
  set.preprocessing = spec.preprocess ? to_json(*spec.preprocess) : nlohmann::json();
  return set;
}

}  // namespace twinrt::parity
