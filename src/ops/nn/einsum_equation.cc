#include "ops/nn/einsum_equation.h"

#include <algorithm>

namespace twinrt::nn {
namespace {

constexpr int kLetters = 52;

int letter_id(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return 26 + (c - 'a');
  return -1;
}

// One term split into letter ids and where its ellipsis sits (-1: none).
struct Term {
  std::vector<int> letters;
  int ellipsis_at = -1;
};

Result<Term> parse_term(const std::string& s, const std::string& equation) {
  Term t;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 3, "...") == 0) {
      if (t.ellipsis_at >= 0) return invalid_argument("Einsum term '" + s + "' has two ellipses in '" + equation + "'");
      t.ellipsis_at = static_cast<int>(t.letters.size());
      i += 2;
      continue;
    }
    const int id = letter_id(s[i]);
    if (id < 0) return invalid_argument(std::string("Einsum equation '") + equation + "' has an invalid character '" + s[i] + "'");
    t.letters.push_back(id);
  }
  return t;
}

// The term's labels with its ellipsis expanded to `count` ids, right-aligned within the
// `total` ellipsis axes so that shorter ellipses broadcast like numpy.
std::vector<int> expand(const Term& t, int count, int total) {
  std::vector<int> out(t.letters.begin(), t.letters.end());
  if (t.ellipsis_at < 0) return out;
  std::vector<int> dots;
  for (int k = total - count; k < total; ++k) dots.push_back(kLetters + k);
  out.insert(out.begin() + t.ellipsis_at, dots.begin(), dots.end());
  return out;
}

}  // namespace

Result<EinsumSpec> parse_einsum(const std::string& equation, const std::vector<int64_t>& ranks) {
  std::string eq;
  for (char c : equation)
    if (c != ' ') eq += c;
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<Term> terms;
  for (size_t start = 0;;) {
    const size_t comma = lhs.find(',', start);
    ASSIGN_OR_RETURN(Term t, parse_term(lhs.substr(start, comma - start), equation));
    terms.push_back(std::move(t));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != ranks.size())
    return invalid_argument("Einsum equation '" + equation + "' has " + std::to_string(terms.size()) + " terms for " +
                            std::to_string(ranks.size()) + " inputs");
  EinsumSpec spec;
  int ellipsis_rank = 0;
  std::vector<int> dot_counts;
  for (size_t i = 0; i < terms.size(); ++i) {
    const int64_t extra = ranks[i] - static_cast<int64_t>(terms[i].letters.size());
    if (extra < 0 || (extra > 0 && terms[i].ellipsis_at < 0))
      return invalid_argument("Einsum term " + std::to_string(i) + " of '" + equation + "' has " +
                              std::to_string(terms[i].letters.size()) + " labels for an input of rank " +
                              std::to_string(ranks[i]));
    dot_counts.push_back(static_cast<int>(extra));
    ellipsis_rank = std::max(ellipsis_rank, static_cast<int>(extra));
  }
  std::vector<int> uses(kLetters, 0);
  for (size_t i = 0; i < terms.size(); ++i) {
    spec.inputs.push_back(expand(terms[i], dot_counts[i], ellipsis_rank));
    for (int id : terms[i].letters) ++uses[static_cast<size_t>(id)];
  }
  if (arrow == std::string::npos) {
    // Implicit output: the ellipsis axes, then letters used exactly once, in ASCII order.
    for (int k = 0; k < ellipsis_rank; ++k) spec.output.push_back(kLetters + k);
    for (int id = 0; id < kLetters; ++id)
      if (uses[static_cast<size_t>(id)] == 1) spec.output.push_back(id);
  } else {
    ASSIGN_OR_RETURN(Term out, parse_term(eq.substr(arrow + 2), equation));
    for (int id : out.letters) {
      if (uses[static_cast<size_t>(id)] == 0)
        return invalid_argument("Einsum output label of '" + equation + "' does not appear in any input");
      if (std::count(out.letters.begin(), out.letters.end(), id) > 1)
        return invalid_argument("Einsum output of '" + equation + "' repeats a label");
    }
    spec.output = expand(out, out.ellipsis_at >= 0 ? ellipsis_rank : 0, ellipsis_rank);
  }
  spec.num_labels = kLetters + ellipsis_rank;
  return spec;
}

}  // namespace twinrt::nn
