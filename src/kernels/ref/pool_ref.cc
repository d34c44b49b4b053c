#include "kernels/ref/pool_ref.h"

#include <cmath>
#include <limits>
#include <vector>

#include "kernels/math/math.h"

namespace twinrt::kernels {
namespace {

// Calls tap(plane_index) for every tap of every output position and done(position,
// padded_count) after each position's taps; padded_count counts taps inside the padded
// input (for count_include_pad).
template <class Tap, class Done>
void for_each_window(const ImageWindow& w, Tap&& tap, Done&& done) {
  const int r = w.rank;
  int64_t positions = 1, ksize = 1;
  for (int d = 0; d < r; ++d) {
    positions *= w.out[d];
    ksize *= w.kernel[d];
  }
  std::vector<int64_t> o(static_cast<size_t>(r), 0), k(static_cast<size_t>(r), 0);
  for (int64_t p = 0; p < positions; ++p) {
    int64_t padded = 1;
    for (int d = 0; d < r; ++d) {
      const int64_t start = o[static_cast<size_t>(d)] * w.strides[d] - w.pad_begin[d];
      int64_t n = 0;
      for (int64_t j = 0; j < w.kernel[d]; ++j) {
        const int64_t i = start + j * w.dilations[d];
        n += i >= -w.pad_begin[d] && i < w.in[d] + (w.pad_end ? w.pad_end[d] : 0);
      }
      padded *= n;
    }
    std::fill(k.begin(), k.end(), 0);
    for (int64_t q = 0; q < ksize; ++q) {
      int64_t flat = 0;
      bool inside = true;
      for (int d = 0; d < r; ++d) {
        const int64_t i = o[static_cast<size_t>(d)] * w.strides[d] - w.pad_begin[d] + k[static_cast<size_t>(d)] * w.dilations[d];
        inside = inside && i >= 0 && i < w.in[d];
        flat = flat * w.in[d] + i;
      }
      if (inside) tap(flat);
      for (int d = r - 1; d >= 0; --d) {
        if (++k[static_cast<size_t>(d)] < w.kernel[d]) break;
        k[static_cast<size_t>(d)] = 0;
      }
    }
    done(p, padded);
    for (int d = r - 1; d >= 0; --d) {
      if (++o[static_cast<size_t>(d)] < w.out[d]) break;
      o[static_cast<size_t>(d)] = 0;
    }
  }
}

template <class T>
void max_pool(const ImageWindow& w, const T* in, T* out, int64_t* argmax) {
  T best = std::numeric_limits<T>::lowest();
  int64_t best_at = -1;
  for_each_window(
      w,
      [&](int64_t i) {
        if (best_at < 0 || in[i] > best) {
          if (in[i] != in[i]) return;  // NaN
          best = in[i];
          best_at = i;
        }
      },
      [&](int64_t p, int64_t) {
        out[p] = best;
        if (argmax) argmax[p] = best_at < 0 ? 0 : best_at;
        best = std::numeric_limits<T>::lowest();
        best_at = -1;
      });
}

template <class T, class Acc>
void avg_pool(const ImageWindow& w, const T* in, T* out, bool count_include_pad) {
  Acc sum = 0;
  int64_t count = 0;
  for_each_window(
      w,
      [&](int64_t i) {
        sum += static_cast<Acc>(in[i]);
        ++count;
      },
      [&](int64_t p, int64_t padded) {
        const int64_t n = count_include_pad ? padded : count;
        out[p] = static_cast<T>(n > 0 ? sum / static_cast<Acc>(n) : Acc(0));
        sum = 0;
        count = 0;
      });
}

template <class T, class Acc>
void lp_pool(const ImageWindow& w, const T* in, T* out, int64_t p_norm) {
  Acc sum = 0;
  const double p = static_cast<double>(p_norm);
  for_each_window(
      w, [&](int64_t i) { sum += static_cast<Acc>(math::pow(std::fabs(static_cast<double>(in[i])), p)); },
      [&](int64_t pos, int64_t) {
        out[pos] = static_cast<T>(math::pow(static_cast<double>(sum), 1.0 / p));
        sum = 0;
      });
}

}  // namespace

void f32_maxpool_ref(const ImageWindow& w, const float* in, float* out, int64_t* a) { max_pool(w, in, out, a); }
void f64_maxpool_ref(const ImageWindow& w, const double* in, double* out, int64_t* a) { max_pool(w, in, out, a); }
void u8_maxpool_ref(const ImageWindow& w, const uint8_t* in, uint8_t* out, int64_t* a) { max_pool(w, in, out, a); }
void i8_maxpool_ref(const ImageWindow& w, const int8_t* in, int8_t* out, int64_t* a) { max_pool(w, in, out, a); }

void f32_avgpool_ref(const ImageWindow& w, const float* in, float* out, bool pad) { avg_pool<float, float>(w, in, out, pad); }
void f32_avgpool_f64acc_ref(const ImageWindow& w, const float* in, float* out, bool pad) {
  avg_pool<float, double>(w, in, out, pad);
}
void f64_avgpool_ref(const ImageWindow& w, const double* in, double* out, bool pad) { avg_pool<double, double>(w, in, out, pad); }

void f32_lppool_ref(const ImageWindow& w, const float* in, float* out, int64_t p) { lp_pool<float, float>(w, in, out, p); }
void f32_lppool_f64acc_ref(const ImageWindow& w, const float* in, float* out, int64_t p) {
  lp_pool<float, double>(w, in, out, p);
}
void f64_lppool_ref(const ImageWindow& w, const double* in, double* out, int64_t p) { lp_pool<double, double>(w, in, out, p); }

}  // namespace twinrt::kernels
