// TfIdfVectorizer: counts the pool's n-grams (lengths min..max_gram_length, with up to
// max_skip_count items skipped between consecutive n-gram items) in each row of a [C] or
// [N, C] tensor of int32/int64 or strings, and writes weighted counts into a float
// vector at the pool entries' ngram_indexes.
#include <algorithm>
#include <map>

#include "ops/op.h"

namespace twinrt {
namespace {

enum class Weighting { kTF, kIDF, kTFIDF };

// The pool as a map from n-gram to its ordinal (the position in ngram_indexes).
template <class T>
using NgramPool = std::map<std::vector<T>, size_t>;

struct TfIdfSpec {
  Weighting weighting = Weighting::kTF;
  int64_t min_gram = 1, max_gram = 1, max_skip = 0;
  std::vector<int64_t> output_index;  // per pool n-gram
  std::vector<float> weights;         // per pool n-gram
  int64_t width = 0;                  // max(ngram_indexes) + 1
  int64_t pool_levels = 0;            // longest n-gram length in the pool
};

template <class T>
class TfIdfKernel final : public OpKernel {
 public:
  TfIdfKernel(TfIdfSpec spec, NgramPool<T> pool) : spec_(std::move(spec)), pool_(std::move(pool)) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* s = ctx.shape(0);
    if (s && s->size() == 2) ctx.set_output(0, DataType::kFloat, ir::Shape{(*s)[0], ir::Dim::of(spec_.width)});
    else ctx.set_output(0, DataType::kFloat, std::vector<int64_t>{spec_.width});
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    if (x->rank() != 1 && x->rank() != 2)
      return invalid_argument("X must be [C] or [N, C], got " + shape_to_string(x->shape()));
    const bool string_pool = std::is_same_v<T, std::string>;
    if (string_pool != (x->dtype() == DataType::kString) ||
        (!string_pool && x->dtype() != DataType::kInt32 && x->dtype() != DataType::kInt64))
      return invalid_argument(std::string("X is ") + dtype_name(x->dtype()) + ", but the pool holds " +
                              (string_pool ? "strings" : "integers (X must be int32 or int64)"));
    const int64_t rows = x->rank() == 2 ? x->dim(0) : 1;
    const int64_t cols = x->dim(x->rank() - 1);
    std::vector<int64_t> shape = {spec_.width};
    if (x->rank() == 2) shape.insert(shape.begin(), rows);
    ASSIGN_OR_RETURN(Tensor* y, ctx.output(0, DataType::kFloat, shape));
    std::vector<T> row(static_cast<size_t>(cols));
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) row[static_cast<size_t>(c)] = element(*x, r * cols + c);
      write_row(count_row(row), y->data<float>() + r * spec_.width);
    }
    return Status::ok();
  }

 private:
  static T element(const Tensor& x, int64_t i) {
    if constexpr (std::is_same_v<T, std::string>) return x.data<std::string>()[i];
    else return x.dtype() == DataType::kInt64 ? x.data<int64_t>()[i] : x.data<int32_t>()[i];
  }

  // Occurrences of each pool n-gram in one row. Unigrams are counted once: skipping
  // only matters between the items of longer n-grams.
  std::vector<int64_t> count_row(const std::vector<T>& row) const {
    std::vector<int64_t> counts(spec_.output_index.size(), 0);
    const auto len = static_cast<int64_t>(row.size());
    const int64_t longest = std::min({spec_.max_gram, len, spec_.pool_levels});
    std::vector<T> key;
    for (int64_t n = spec_.min_gram; n <= longest; ++n) {
      const int64_t skips = n == 1 ? 0 : spec_.max_skip;
      for (int64_t s = 0; s <= skips; ++s) {
        const int64_t step = s + 1;
        if (n > 1 && step > (len - 1) / (n - 1)) break;  // the n-gram no longer fits in the row
        for (int64_t start = 0; start + (n - 1) * step < len; ++start) {
          key.clear();
          for (int64_t k = 0; k < n; ++k) key.push_back(row[static_cast<size_t>(start + k * step)]);
          auto it = pool_.find(key);
          if (it != pool_.end()) ++counts[it->second];
        }
      }
    }
    return counts;
  }

  void write_row(const std::vector<int64_t>& counts, float* out) const {
    for (size_t i = 0; i < counts.size(); ++i) {
      const int64_t c = counts[i];
      float v = static_cast<float>(c);
      if (spec_.weighting == Weighting::kIDF) v = c > 0 ? spec_.weights[i] : 0.0f;
      else if (spec_.weighting == Weighting::kTFIDF) v = static_cast<float>(c) * spec_.weights[i];
      out[spec_.output_index[i]] = v;
    }
  }

  TfIdfSpec spec_;
  NgramPool<T> pool_;
};

// Splits the flat pool into n-grams: ngram_counts[k] is where the (k+1)-grams start.
template <class T>
Result<NgramPool<T>> build_pool(const KernelInit& init, const std::vector<T>& flat,
                                const std::vector<int64_t>& starts, size_t expected) {
  NgramPool<T> pool;
  size_t ordinal = 0;
  for (size_t k = 0; k < starts.size(); ++k) {
    const auto n = static_cast<int64_t>(k + 1);
    const int64_t begin = starts[k];
    const int64_t end = k + 1 < starts.size() ? starts[k + 1] : static_cast<int64_t>(flat.size());
    if (begin < 0 || end < begin || end > static_cast<int64_t>(flat.size()) || (end - begin) % n != 0)
      return init.error("ngram_counts do not split the pool into whole " + std::to_string(n) + "-grams");
    for (int64_t p = begin; p < end; p += n) {
      pool.emplace(std::vector<T>(flat.begin() + p, flat.begin() + p + n), ordinal);
      ++ordinal;
    }
  }
  if (ordinal != expected)
    return init.error("the pool holds " + std::to_string(ordinal) + " n-grams but ngram_indexes has " +
                      std::to_string(expected) + " entries");
  return pool;
}

Result<TfIdfSpec> parse_spec(const KernelInit& init) {
  TfIdfSpec spec;
  ASSIGN_OR_RETURN(std::string mode, init.attr_string("mode", ""));
  if (mode == "TF") spec.weighting = Weighting::kTF;
  else if (mode == "IDF") spec.weighting = Weighting::kIDF;
  else if (mode == "TFIDF") spec.weighting = Weighting::kTFIDF;
  else return init.error("mode must be TF, IDF or TFIDF, got '" + mode + "'");
  ASSIGN_OR_RETURN(spec.min_gram, init.attr_int("min_gram_length", 0));
  ASSIGN_OR_RETURN(spec.max_gram, init.attr_int("max_gram_length", 0));
  ASSIGN_OR_RETURN(spec.max_skip, init.attr_int("max_skip_count", 0));
  if (spec.min_gram < 1 || spec.max_gram < spec.min_gram || spec.max_skip < 0)
    return init.error("need 1 <= min_gram_length <= max_gram_length and max_skip_count >= 0, got " +
                      std::to_string(spec.min_gram) + ", " + std::to_string(spec.max_gram) + ", " +
                      std::to_string(spec.max_skip));
  ASSIGN_OR_RETURN(spec.output_index, init.attr_ints("ngram_indexes"));
  for (int64_t i : spec.output_index) {
    if (i < 0 || i == INT64_MAX) return init.error("ngram_indexes must be non-negative, got " + std::to_string(i));
    spec.width = std::max(spec.width, i + 1);
  }
  ASSIGN_OR_RETURN(spec.weights, init.attr_floats("weights"));
  if (spec.weights.empty()) spec.weights.assign(spec.output_index.size(), 1.0f);
  if (spec.weights.size() != spec.output_index.size())
    return init.error("weights has " + std::to_string(spec.weights.size()) + " entries, ngram_indexes " +
                      std::to_string(spec.output_index.size()));
  return spec;
}

Result<std::unique_ptr<OpKernel>> create_tfidf_vectorizer(const KernelInit& init) {
  if (init.num_inputs() != 1 || !init.has_input(0)) return init.error("takes exactly one input");
  ASSIGN_OR_RETURN(TfIdfSpec spec, parse_spec(init));
  ASSIGN_OR_RETURN(std::vector<int64_t> starts, init.attr_ints("ngram_counts"));
  spec.pool_levels = static_cast<int64_t>(starts.size());
  if (init.has_attr("pool_strings") == init.has_attr("pool_int64s"))
    return init.error("exactly one of pool_strings and pool_int64s must be given");
  const size_t expected = spec.output_index.size();
  if (init.has_attr("pool_strings")) {
    ASSIGN_OR_RETURN(std::vector<std::string> flat, init.attr_strings("pool_strings"));
    ASSIGN_OR_RETURN(auto pool, build_pool(init, flat, starts, expected));
    return make_kernel<TfIdfKernel<std::string>>(std::move(spec), std::move(pool));
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> flat, init.attr_ints("pool_int64s"));
  ASSIGN_OR_RETURN(auto pool, build_pool(init, flat, starts, expected));
  return make_kernel<TfIdfKernel<int64_t>>(std::move(spec), std::move(pool));
}

}  // namespace

TWINRT_REGISTER_OP("TfIdfVectorizer", 9, create_tfidf_vectorizer);

}  // namespace twinrt
