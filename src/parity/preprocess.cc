// The preprocessing spec: its compact flag form, its JSON form and the report JSON.
#include "parity/preprocess.h"

#include <charconv>
#include <cmath>
#include <set>

#include "io/file_io.h"

namespace twinrt::parity {
namespace {

constexpr int kMaxSide = 16384;  // refuses absurd sizes before any allocation

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

Status bad_value(const std::string& key, const std::string& value, const std::string& expected) {
  return invalid_argument("--preprocess: key '" + key + "' expects " + expected + ", got '" + value + "'");
}

Result<double> parse_number(const std::string& key, const std::string& text) {
  double v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(v))
    return bad_value(key, text, "a finite number");
  return v;
}

Result<int> parse_side(const std::string& key, const std::string& text) {
  int v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end || v < 1 || v > kMaxSide)
    return bad_value(key, text, "a whole number of pixels from 1 to " + std::to_string(kMaxSide));
  return v;
}

// "WxH"
Result<std::pair<int, int>> parse_size(const std::string& key, const std::string& text) {
  const std::vector<std::string> parts = split(text, 'x');
  if (parts.size() != 2) return bad_value(key, text, "WIDTHxHEIGHT");
  ASSIGN_OR_RETURN(int w, parse_side(key, parts[0]));
  ASSIGN_OR_RETURN(int h, parse_side(key, parts[1]));
  return std::pair{w, h};
}

// "a:b:c", or one value for all three channels.
Result<std::vector<double>> parse_channels(const std::string& key, const std::string& text) {
  std::vector<double> values;
  for (const std::string& part : split(text, ':')) {
    ASSIGN_OR_RETURN(double v, parse_number(key, part));
    values.push_back(v);
  }
  if (values.size() == 1) values.assign(3, values[0]);
  if (values.size() != 3) return bad_value(key, text, "one value or three separated by ':'");
  return values;
}

Result<DataType> parse_dtype(const std::string& text) {
  if (text == "float32") return DataType::kFloat;
  if (text == "float16") return DataType::kFloat16;
  if (text == "uint8") return DataType::kUInt8;
  return bad_value("dtype", text, "float32, float16 or uint8");
}

// A bare word stands for key=word.
std::pair<std::string, std::string> expand_word(const std::string& token) {
  const size_t eq = token.find('=');
  if (eq != std::string::npos) return {token.substr(0, eq), token.substr(eq + 1)};
  if (token == "rgb" || token == "bgr") return {"channels", token};
  if (token == "nchw" || token == "nhwc") return {"layout", token};
  if (token == "float32" || token == "float16" || token == "uint8") return {"dtype", token};
  return {token, ""};
}

Status apply(PreprocessSpec& spec, const std::string& key, const std::string& value) {
  if (key == "resize") {
    ASSIGN_OR_RETURN(spec.resize, parse_size(key, value));
  } else if (key == "short") {
    ASSIGN_OR_RETURN(spec.resize_short, parse_side(key, value));
  } else if (key == "crop") {
    ASSIGN_OR_RETURN(spec.center_crop, parse_size(key, value));
  } else if (key == "channels") {
    if (value != "rgb" && value != "bgr") return bad_value(key, value, "rgb or bgr");
    spec.bgr = value == "bgr";
  } else if (key == "scale") {
    ASSIGN_OR_RETURN(spec.scale, parse_number(key, value));
  } else if (key == "mean") {
    ASSIGN_OR_RETURN(spec.mean, parse_channels(key, value));
  } else if (key == "std") {
    ASSIGN_OR_RETURN(spec.std, parse_channels(key, value));
    for (double s : spec.std)
      if (s == 0) return bad_value(key, value, "non-zero values");
  } else if (key == "layout") {
    if (value != "nchw" && value != "nhwc") return bad_value(key, value, "nchw or nhwc");
    spec.nhwc = value == "nhwc";
  } else if (key == "dtype") {
    ASSIGN_OR_RETURN(spec.dtype, parse_dtype(value));
  } else {
    return invalid_argument("--preprocess: unknown key '" + key +
                            "' (keys: resize, short, crop, channels (rgb|bgr), scale, mean, std, "
                            "layout (nchw|nhwc), dtype (float32|float16|uint8))");
  }
  return Status::ok();
}

Result<PreprocessSpec> parse_pairs(const std::vector<std::pair<std::string, std::string>>& pairs) {
  PreprocessSpec spec;
  std::set<std::string> seen;
  for (const auto& [key, value] : pairs) {
    if (!seen.insert(key).second) return invalid_argument("--preprocess: key '" + key + "' is given twice");
    TRY(apply(spec, key, value));
  }
  if (spec.resize && spec.resize_short)
    return invalid_argument("--preprocess: give either 'resize' or 'short', not both");
  return spec;
}

// A JSON value in the compact form's syntax: [W, H] -> "WxH", [a, b, c] -> "a:b:c".
Result<std::string> json_value_text(const std::string& key, const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number()) return v.dump();
  if (v.is_array()) {
    const char sep = key == "resize" || key == "crop" ? 'x' : ':';
    std::string text;
    for (const nlohmann::json& item : v) {
      if (!item.is_number()) return bad_value(key, v.dump(), "an array of numbers");
      text += (text.empty() ? "" : std::string(1, sep)) + item.dump();
    }
    return text;
  }
  return bad_value(key, v.dump(), "a string, a number or an array of numbers");
}

Result<PreprocessSpec> parse_json_file(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, io::read_file_bytes(path));
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object())
    return invalid_argument("--preprocess: '" + path + "' is not a JSON object");
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const auto& [key, value] : doc.items()) {
    auto text_value = json_value_text(key, value);
    if (!text_value) return text_value.status().with_context("'" + path + "': ");
    pairs.emplace_back(key, *text_value);
  }
  auto spec = parse_pairs(pairs);
  if (!spec) return spec.status().with_context("'" + path + "': ");
  return spec;
}

}  // namespace

Result<PreprocessSpec> parse_preprocess(const std::string& text) {
  if (text.size() >= 5 && text.compare(text.size() - 5, 5, ".json") == 0) return parse_json_file(text);
  if (text.empty()) return invalid_argument("--preprocess: empty spec");
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const std::string& token : split(text, ',')) pairs.push_back(expand_word(token));
  return parse_pairs(pairs);
}

nlohmann::json to_json(const PreprocessSpec& spec) {
  nlohmann::json j = nlohmann::json::object();
  if (spec.resize) j["resize"] = {spec.resize->first, spec.resize->second};
  if (spec.resize_short) j["short"] = *spec.resize_short;
  if (spec.center_crop) j["crop"] = {spec.center_crop->first, spec.center_crop->second};
  j["channels"] = spec.bgr ? "bgr" : "rgb";
  j["scale"] = spec.scale;
  j["mean"] = spec.mean;
  j["std"] = spec.std;
  j["layout"] = spec.nhwc ? "nhwc" : "nchw";
  j["dtype"] = dtype_name(spec.dtype);
  return j;
}

}  // namespace twinrt::parity
