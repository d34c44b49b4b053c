#include "parity/node_text.h"

#include <cstdio>

namespace twinrt::parity {
namespace {

constexpr size_t kMaxListItems = 8;

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

template <class T, class Format>
std::string list_text(const std::vector<T>& items, Format format) {
  std::string s = "[";
  for (size_t i = 0; i < items.size() && i < kMaxListItems; ++i) s += (i ? "," : "") + format(items[i]);
  if (items.size() > kMaxListItems) s += ",...";
  return s + "]";
}

std::string value_text(const ir::Attribute& a) {
  using T = ir::Attribute::Type;
  switch (a.type) {
    case T::kFloat: return number_text(a.f);
    case T::kInt: return std::to_string(a.i);
    case T::kString: return "\"" + a.s + "\"";
    case T::kFloats: return list_text(a.floats, [](float v) { return number_text(v); });
    case T::kInts: return list_text(a.ints, [](int64_t v) { return std::to_string(v); });
    case T::kStrings: return list_text(a.strings, [](const std::string& v) { return "\"" + v + "\""; });
    case T::kTensor: return "tensor" + shape_to_string(a.t.shape());
    default: return attribute_type_name(a.type);
  }
}

}  // namespace

std::string attributes_text(const ir::Node& node, size_t max_chars) {
  std::string s;
  for (const auto& a : node.attributes) {
    if (!s.empty()) s += ' ';
    s += a.name + "=" + value_text(a);
  }
  if (s.size() > max_chars) s = s.substr(0, max_chars - 3) + "...";
  return s;
}

}  // namespace twinrt::parity
