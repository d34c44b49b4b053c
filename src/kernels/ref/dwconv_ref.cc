#include "kernels/ref/dwconv_ref.h"

#include <algorithm>
#include <vector>

namespace twinrt::kernels {
namespace {

// First output column whose tap at input offset `shift` + ow * stride is >= 0, and the
// end of those whose tap is < width.
inline void valid_columns(int64_t shift, int64_t stride, int64_t width, int64_t out_w, int64_t& lo, int64_t& hi) {
  lo = shift >= 0 ? 0 : (-shift + stride - 1) / stride;
  hi = width - shift <= 0 ? 0 : (width - shift + stride - 1) / stride;
  lo = std::min(lo, out_w);
  hi = std::clamp(hi, lo, out_w);
}

template <class Acc>
void dwconv2d(const ImageWindow& w, const float* in, const float* weights, float bias, float* out) {
  const int64_t ih_n = w.in[0], iw_n = w.in[1], oh_n = w.out[0], ow_n = w.out[1];
  const int64_t kh_n = w.kernel[0], kw_n = w.kernel[1];
  std::vector<Acc> acc(static_cast<size_t>(ow_n));
  for (int64_t oh = 0; oh < oh_n; ++oh) {
    std::fill(acc.begin(), acc.end(), Acc(0));
    for (int64_t kh = 0; kh < kh_n; ++kh) {
      const int64_t ih = oh * w.strides[0] - w.pad_begin[0] + kh * w.dilations[0];
      if (ih < 0 || ih >= ih_n) continue;
      const float* row = in + ih * iw_n;
      for (int64_t kw = 0; kw < kw_n; ++kw) {
        const Acc wv = static_cast<Acc>(weights[kh * kw_n + kw]);
        const int64_t shift = kw * w.dilations[1] - w.pad_begin[1], stride = w.strides[1];
        int64_t lo, hi;
        valid_columns(shift, stride, iw_n, ow_n, lo, hi);
        if (stride == 1) {
          const float* src = row + shift;
          Acc* a = acc.data();
          int64_t ow = lo;
          for (; ow + 8 <= hi; ow += 8) {  // fixed-width blocks the compiler can vectorize
#pragma GCC unroll 8
            for (int j = 0; j < 8; ++j) a[ow + j] += wv * static_cast<Acc>(src[ow + j]);
          }
          for (; ow < hi; ++ow) a[ow] += wv * static_cast<Acc>(src[ow]);
        } else {
          for (int64_t ow = lo; ow < hi; ++ow)
            acc[static_cast<size_t>(ow)] += wv * static_cast<Acc>(row[ow * stride + shift]);
        }
      }
    }
    float* dst = out + oh * ow_n;
    for (int64_t ow = 0; ow < ow_n; ++ow) dst[ow] = static_cast<float>(acc[static_cast<size_t>(ow)] + static_cast<Acc>(bias));
  }
}

}  // namespace

void f32_dwconv2d_ref(const ImageWindow& w, const float* in, const float* weights, float bias, float* out) {
  dwconv2d<float>(w, in, weights, bias, out);
}

void f32_dwconv2d_f64acc_ref(const ImageWindow& w, const float* in, const float* weights, float bias, float* out) {
  dwconv2d<double>(w, in, weights, bias, out);
}

}  // namespace twinrt::kernels
