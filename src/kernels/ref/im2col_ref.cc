#include "kernels/ref/im2col_ref.h"

#include <algorithm>
#include <cstring>
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
  if (count <= 0) return runs;  // also when an output dim is 0 (the divisions below)
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

// Calls fn(row, run, line, shift) for every im2col row (channel * kernel size + kernel
// offset) and run of output positions. `line` is the flat image offset of the input line
// the run reads (-1 when that line lies in the padding); the run's tap t reads last-axis
// index (run.last_begin + t) * stride + shift of that line.
template <class Fn>
void walk(const ImageWindow& w, int64_t channels, int64_t first, int64_t count, Fn&& fn) {
  const int r = w.rank;
  int64_t ksize = 1, in_size = 1;
  for (int d = 0; d < r; ++d) {
    ksize *= w.kernel[d];
    in_size *= w.in[d];
  }
  const std::vector<Run> runs = split_runs(w, first, count);
  std::vector<int64_t> k(static_cast<size_t>(r), 0);
  for (int64_t c = 0; c < channels; ++c) {
    for (int64_t q = 0; q < ksize; ++q) {
      int64_t rest = q;
      for (int d = r - 1; d >= 0; --d) {
        k[static_cast<size_t>(d)] = rest % w.kernel[d];
        rest /= w.kernel[d];
      }
      const int64_t shift = k.back() * w.dilations[r - 1] - w.pad_begin[r - 1];
      for (const Run& run : runs) {
        int64_t base = 0;
        bool inside = true;
        for (int d = 0; d + 1 < r; ++d) {
          const int64_t i = run.lead[static_cast<size_t>(d)] * w.strides[d] - w.pad_begin[d] +
                            k[static_cast<size_t>(d)] * w.dilations[d];
          inside = inside && i >= 0 && i < w.in[d];
          base = base * w.in[d] + i;
        }
        fn(c * ksize + q, run, inside ? c * in_size + base * w.in[r - 1] : -1, shift);
      }
    }
  }
}

// Short copies inline (8 elements at a time) instead of a memcpy/memset call per run:
// runs are one output row, tens of elements.
template <class T>
inline void copy_run(T* dst, const T* src, int64_t n) {
  int64_t t = 0;
  for (; t + 8 <= n; t += 8) std::memcpy(dst + t, src + t, 8 * sizeof(T));
  for (; t < n; ++t) dst[t] = src[t];
}
template <class T>
inline void fill_run(T* dst, T value, int64_t n) {
  for (int64_t t = 0; t < n; ++t) dst[t] = value;
}

// The 2-D case with stride 1, dilation 1 and output rows as wide as input rows (a "same"
// convolution, e.g. 3x3 with padding 1): then tap (kh, kw) of flat output position p reads
// flat input position p + (kh - ph) * width + (kw - pw), so each im2col row is one copy of
// the plane, with padding where that index leaves the plane (the rows above and below)
// and in the |kw - pw| columns that wrap around a row edge. On 7- and 14-wide images the
// per-output-row copies of im2col_2d below cost more than the copying itself.
template <class T>
void im2col_2d_same_width(const ImageWindow& w, const T* image, int64_t channels, int64_t first, int64_t count, T pad,
                          T* col, int64_t ld) {
  const int64_t width = w.in[1], plane_size = w.in[0] * width;
  const int64_t ph = w.pad_begin[0], pw = w.pad_begin[1];
  const int64_t row_begin = first / width, row_end = (first + count + width - 1) / width;  // output rows touched
  int64_t row = 0;
  for (int64_t c = 0; c < channels; ++c) {
    const T* plane = image + c * plane_size;
    for (int64_t kh = 0; kh < w.kernel[0]; ++kh)
      for (int64_t kw = 0; kw < w.kernel[1]; ++kw, ++row) {
        T* dst = col + row * ld;
        const int64_t shift = (kh - ph) * width + (kw - pw);
        // Columns [lo, hi) read inside the plane.
        const int64_t lo = std::clamp<int64_t>(-shift - first, 0, count);
        const int64_t hi = std::clamp<int64_t>(plane_size - shift - first, lo, count);
        std::fill(dst, dst + lo, pad);
        std::memcpy(dst + lo, plane + first + shift + lo, static_cast<size_t>(hi - lo) * sizeof(T));
        std::fill(dst + hi, dst + count, pad);
        // Output columns [edge_lo, edge_hi) of every row read across a row edge.
        const int64_t edge_lo = kw < pw ? 0 : width - (kw - pw), edge_hi = kw < pw ? pw - kw : width;
        if (edge_lo >= edge_hi) continue;
        for (int64_t oh = row_begin; oh < row_end; ++oh) {
          const int64_t a = std::max(oh * width + edge_lo - first, int64_t{0});
          const int64_t b = std::min(oh * width + edge_hi - first, count);
          if (a < b) std::fill(dst + a, dst + b, pad);
        }
      }
  }
}

// The 2-D case with the runs (output rows) worked out once for all rows of the matrix and
// no divisions per run when the stride is 1; the same values as the general walk below.
template <class T>
void im2col_2d(const ImageWindow& w, const T* image, int64_t channels, int64_t first, int64_t count, T pad, T* col,
               int64_t ld) {
  const int64_t ih_n = w.in[0], iw_n = w.in[1], ow_n = w.out[1];
  const int64_t sh = w.strides[0], sw = w.strides[1], dh = w.dilations[0], dw = w.dilations[1];
  const int64_t ph = w.pad_begin[0], pw = w.pad_begin[1];
  struct Run2d {
    int64_t oh, ow0, length, column;
  };
  thread_local std::vector<Run2d> runs;
  runs.clear();
  if (ow_n <= 0) return;
  for (int64_t column = 0; column < count;) {
    const int64_t pos = first + column, ow0 = pos % ow_n, length = std::min(ow_n - ow0, count - column);
    runs.push_back({pos / ow_n, ow0, length, column});
    column += length;
  }
  int64_t row = 0;
  for (int64_t c = 0; c < channels; ++c) {
    const T* plane = image + c * ih_n * iw_n;
    for (int64_t kh = 0; kh < w.kernel[0]; ++kh)
      for (int64_t kw = 0; kw < w.kernel[1]; ++kw, ++row) {
        T* dst_row = col + row * ld;
        for (const Run2d& run : runs) {
          T* dst = dst_row + run.column;
          const int64_t ih = run.oh * sh - ph + kh * dh;
          if (ih < 0 || ih >= ih_n) {
            fill_run(dst, pad, run.length);
            continue;
          }
          // Columns t in [lo, hi) read iw0 + t * sw inside the line; the others are padding.
          const int64_t iw0 = run.ow0 * sw - pw + kw * dw;
          int64_t lo, hi;
          if (sw == 1) {
            lo = std::clamp<int64_t>(-iw0, 0, run.length);
            hi = std::clamp<int64_t>(iw_n - iw0, lo, run.length);
          } else {
            lo = std::clamp<int64_t>(iw0 >= 0 ? 0 : (-iw0 + sw - 1) / sw, 0, run.length);
            hi = std::clamp<int64_t>(iw0 >= iw_n ? 0 : (iw_n - iw0 + sw - 1) / sw, lo, run.length);
          }
          const T* src = plane + ih * iw_n + (iw0 + lo * sw);  // column lo's input
          fill_run(dst, pad, lo);
          if (sw == 1) copy_run(dst + lo, src, hi - lo);
          else if (sw == 2)  // stride 2 (downsampling convs) spelled out: a constant stride vectorizes
            for (int64_t t = lo; t < hi; ++t) dst[t] = src[(t - lo) * 2];
          else
            for (int64_t t = lo; t < hi; ++t) dst[t] = src[(t - lo) * sw];
          fill_run(dst + hi, pad, run.length - hi);
        }
      }
  }
}

template <class T>
void im2col_impl(const ImageWindow& w, const T* image, int64_t channels, int64_t first, int64_t count, T pad, T* col,
                 int64_t ld) {
  if (w.rank == 2 && w.strides[0] == 1 && w.strides[1] == 1 && w.dilations[0] == 1 && w.dilations[1] == 1 &&
      w.out[1] == w.in[1] && w.out[0] > 0 && w.in[1] > 0)
    return im2col_2d_same_width(w, image, channels, first, count, pad, col, ld);
  if (w.rank == 2) return im2col_2d(w, image, channels, first, count, pad, col, ld);
  const int64_t last_in = w.in[w.rank - 1], stride = w.strides[w.rank - 1];
  walk(w, channels, first, count, [&](int64_t row, const Run& run, int64_t line, int64_t shift) {
    T* dst = col + row * ld + run.column;
    if (line < 0) {
      std::fill(dst, dst + run.length, pad);
      return;
    }
    // Taps t read index (last_begin + t) * stride + shift: inside the line for t in
    // [lo, hi), padding on either side. Branch-free middle, so stride 1 is a plain copy.
    const T* src = image + line + run.last_begin * stride + shift;
    const auto first_at_least = [&](int64_t bound) {  // smallest t with t * stride + offset >= bound
      const int64_t need = bound - (run.last_begin * stride + shift);
      const int64_t t = need <= 0 ? 0 : (need + stride - 1) / stride;
      return std::min(t, run.length);
    };
    const int64_t lo = first_at_least(0), hi = std::max(lo, first_at_least(last_in));
    std::fill(dst, dst + lo, pad);
    if (stride == 1) std::copy(src + lo, src + hi, dst + lo);
    else
      for (int64_t t = lo; t < hi; ++t) dst[t] = src[t * stride];
    std::fill(dst + hi, dst + run.length, pad);
  });
}

template <class T>
void col2im_impl(const ImageWindow& w, const T* col, int64_t ld, int64_t channels, T* image) {
  int64_t positions = 1;
  for (int d = 0; d < w.rank; ++d) positions *= w.out[d];
  const int64_t last_in = w.in[w.rank - 1], stride = w.strides[w.rank - 1];
  walk(w, channels, 0, positions, [&](int64_t row, const Run& run, int64_t line, int64_t shift) {
    if (line < 0) return;
    const T* src = col + row * ld + run.column;
    T* dst = image + line;
    // The t whose column i = (last_begin + t) * stride + shift lies in [0, last_in), found
    // once: the loop then needs no bounds checks (and with stride 1 it vectorizes).
    const auto ceil_div = [stride](int64_t a) { return a >= 0 ? (a + stride - 1) / stride : -(-a / stride); };
    const int64_t t_begin = std::max<int64_t>(0, ceil_div(-shift) - run.last_begin);
    const int64_t t_end = std::min<int64_t>(run.length, ceil_div(last_in - shift) - run.last_begin);
    for (int64_t t = t_begin; t < t_end; ++t) dst[(run.last_begin + t) * stride + shift] += src[t];
  });
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

void f32_col2im_ref(const ImageWindow& w, const float* col, int64_t ld, int64_t channels, float* image) {
  col2im_impl(w, col, ld, channels, image);
}

}  // namespace twinrt::kernels
