#include "io/npy_header.h"

#include <limits>

namespace twinrt::io {
namespace {

class DictParser {
 public:
  explicit DictParser(std::string_view text) : s_(text) {}

  Result<NpyHeader> parse() {
    NpyHeader h;
    bool have_descr = false, have_order = false, have_shape = false;
    TRY(expect('{'));
    for (;;) {
      skip_space();
      if (consume('}')) break;
      ASSIGN_OR_RETURN(std::string key, string_literal());
      TRY(expect(':'));
      if (key == "descr") {
        skip_space();
        if (peek() != '\'' && peek() != '"')
          return fail("descr is not a simple dtype string (structured dtypes are not supported)");
        ASSIGN_OR_RETURN(h.descr, string_literal());
        have_descr = true;
      } else if (key == "fortran_order") {
        ASSIGN_OR_RETURN(h.fortran_order, boolean());
        have_order = true;
      } else if (key == "shape") {
        ASSIGN_OR_RETURN(h.shape, int_tuple());
        have_shape = true;
      } else {
        return fail("unexpected key '" + key + "'");
      }
      skip_space();
      if (consume('}')) break;
      TRY(expect(','));
    }
    if (!have_descr || !have_order || !have_shape)
      return fail("the header must have 'descr', 'fortran_order' and 'shape'");
    skip_space();
    if (pos_ != s_.size()) return fail("unexpected text after the header dict");
    return h;
  }

 private:
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  bool consume(char c) {
    if (peek() != c || pos_ >= s_.size()) return false;
    ++pos_;
    return true;
  }
  void skip_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t')) ++pos_;
  }
  Status fail(const std::string& what) const {
    return invalid_argument("bad .npy header at offset " + std::to_string(pos_) + ": " + what);
  }
  Status expect(char c) {
    skip_space();
    if (!consume(c)) return fail(std::string("expected '") + c + "'");
    return Status::ok();
  }

  Result<std::string> string_literal() {
    skip_space();
    char quote = peek();
    if (quote != '\'' && quote != '"') return fail("expected a quoted string");
    ++pos_;
    size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] != quote) ++pos_;
    if (pos_ >= s_.size()) return fail("unterminated string");
    std::string out(s_.substr(start, pos_ - start));
    ++pos_;
    return out;
  }

  Result<bool> boolean() {
    skip_space();
    for (auto [word, value] : {std::pair{std::string_view("True"), true}, {"False", false}}) {
      if (s_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        return value;
      }
    }
    return fail("expected True or False");
  }

  Result<int64_t> non_negative_int() {
    skip_space();
    if (peek() < '0' || peek() > '9') return fail("expected a non-negative integer");
    int64_t v = 0;
    while (peek() >= '0' && peek() <= '9') {
      int digit = peek() - '0';
      if (v > (std::numeric_limits<int64_t>::max() - digit) / 10) return fail("dimension overflows int64");
      v = v * 10 + digit;
      ++pos_;
    }
    consume('L');  // Python 2 long suffix
    return v;
  }

  Result<std::vector<int64_t>> int_tuple() {
    TRY(expect('('));
    std::vector<int64_t> dims;
    for (;;) {
      skip_space();
      if (consume(')')) return dims;
      ASSIGN_OR_RETURN(int64_t d, non_negative_int());
      dims.push_back(d);
      skip_space();
      if (consume(')')) return dims;
      TRY(expect(','));
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

Result<NpyHeader> parse_npy_header(std::string_view text) { return DictParser(text).parse(); }

std::string format_npy_header(const NpyHeader& h) {
  std::string shape = "(";
  for (size_t i = 0; i < h.shape.size(); ++i) {
    if (i) shape += ", ";
    shape += std::to_string(h.shape[i]);
  }
  if (h.shape.size() == 1) shape += ",";
  shape += ")";
  return "{'descr': '" + h.descr + "', 'fortran_order': " + (h.fortran_order ? "True" : "False") +
         ", 'shape': " + shape + ", }";
}

}  // namespace twinrt::io
