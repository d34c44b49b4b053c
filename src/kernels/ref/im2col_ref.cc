#include "kernels/ref/im2col_ref.h"

#include <algorithm>
#include <vector>

namespace twinrt::kernels {
namespace {

// A run of output positions that differ only in the last spatial axis.
struct Run {
  std::vector<int64_t> lead;  // output index on the leading axes
  int64_t last_begin, length, column;
};

std::vector<Run> split_runs(const ImageWindow& w, int64_t first, int64_t count) {
  const int r = w.rank;
  const int64_t last_size = w.out[r - 1];
  std::vector<Run> runs;
  std::vector<int64_t> idx(static_cast<size_t>(r), 0);
  int64_t rest = first;
  for (int d = r - 1; d >= 0; --d) {
    idx[static_cast<size_t>(d)] = rest % w.out[d];
    rest /= w.out[d];
  }
  for (int64_t done = 0; done < count;) {
    Run run;
    run.lead.assign(idx.begin(), idx.end() - 1);
    run.last_begin = idx.back();
    run.length = std::min(last_size - run.last_begin, count - done);
    run.column = done;
    runs.push_back(run);
    done += run.length;
    idx.back() = 0;
    for (int d = r - 2; d >= 0; --d) {  // carry into the leading axes
      if (++idx[static_cast<size_t>(d)] < w.out[d]) break;
      idx[static_cast<size_t>(d)] = 0;
    }
  }
  return runs;
}

template <class T>
void im2col_impl(const ImageWindow& w, const T* image, int64_t channels, int64_t first, int64_t count, T pad, T* col,
            int64_t ld) {
  const int r = w.rank;
  int64_t ksize = 1, in_size = 1;
  for (int d = 0; d < r; ++d) {
    ksize *= w.kernel[d];
    in_size *= w.in[d];
  }
  const std::vector<Run> runs = split_runs(w, first, count);
  const int64_t last_in = w.in[r - 1], last_stride = w.strides[r - 1];
  std::vector<int64_t> k(static_cast<size_t>(r), 0);
  for (int64_t c = 0; c < channels; ++c) {
    const T* img = image + c * in_size;
    for (int64_t q = 0; q < ksize; ++q) {
      int64_t rest = q;
      for (int d = r - 1; d >= 0; --d) {
        k[static_cast<size_t>(d)] = rest % w.kernel[d];
        rest /= w.kernel[d];
      }
      T* row = col + (c * ksize + q) * ld;
      const int64_t last_shift = k.back() * w.dilations[r - 1] - w.pad_begin[r - 1];
      for (const Run& run : runs) {
        T* dst = row + run.column;
        int64_t base = 0;
        bool inside = true;
        for (int d = 0; d + 1 < r; ++d) {
          const int64_t i = run.lead[static_cast<size_t>(d)] * w.strides[d] - w.pad_begin[d] +
                            k[static_cast<size_t>(d)] * w.dilations[d];
          inside = inside && i >= 0 && i < w.in[d];
          base = base * w.in[d] + i;
        }
        if (!inside) {
          std::fill(dst, dst + run.length, pad);
          continue;
        }
        const T* src = img + base * last_in;
        for (int64_t t = 0; t < run.length; ++t) {
          const int64_t i = (run.last_begin + t) * last_stride + last_shift;
          dst[t] = i >= 0 && i < last_in ? src[i] : pad;
        }
      }
    }
  }
}

}  // namespace

void f32_im2col_ref(const ImageWindow& w, const float* image, int64_t channels, int64_t first, int64_t count,
                    float pad, float* col, int64_t ld) {
  im2col_impl(w, image, channels, first, count, pad, col, ld);
}
void f64_im2col_ref(const ImageWindow& w, const double* image, int64_t channels, int64_t first, int64_t count,
                    double pad, double* col, int64_t ld) {
  im2col_impl(w, image, channels, first, count, pad, col, ld);
}
void u8_im2col_ref(const ImageWindow& w, const uint8_t* image, int64_t channels, int64_t first, int64_t count,
                   uint8_t pad, uint8_t* col, int64_t ld) {
  im2col_impl(w, image, channels, first, count, pad, col, ld);
}
void i8_im2col_ref(const ImageWindow& w, const int8_t* image, int64_t channels, int64_t first, int64_t count,
                   int8_t pad, int8_t* col, int64_t ld) {
  im2col_impl(w, image, channels, first, count, pad, col, ld);
}

}  // namespace twinrt::kernels
