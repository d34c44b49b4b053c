// 2-D max pooling without dilation or indices, for float32 and 8-bit integers: the
// reference kernel's result (kernels/ref/pool_ref.h: NaN taps are skipped, the first of
// equal maxima wins, a window with no number gives the type's lowest value), a vector of
// output columns at a time. One implementation (maxpool_2d.inc) compiled per ISA tier; as
// pooling only compares, every tier gives the same bits.
#pragma once

#include <cstdint>

#include "kernels/ref/image_window.h"
#include "twinrt/session.h"

namespace twinrt::kernels {

// Whether the kernels below handle the window: rank 2 and dilations of 1.
bool maxpool_2d_applies(const ImageWindow& w);

// `scratch`: maxpool_2d_scratch_bytes(w) bytes of the caller's, any alignment. f32 pools
// `planes` planes one after the other (in[0] * in[1] and out[0] * out[1] floats apart).
struct MaxPool2dKernels {
  void (*f32)(const ImageWindow& w, const float* in, float* out, int64_t planes, void* scratch);
  void (*u8)(const ImageWindow& w, const uint8_t* in, uint8_t* out, void* scratch);
  void (*i8)(const ImageWindow& w, const int8_t* in, int8_t* out, void* scratch);
};

// The scratch a kernel below needs for `w`: the maxima of a window's input rows, per output
// column, in elements of `element_bytes` bytes, in a ring of maxpool_2d_ring_rows rows, or
// of every input row where maxpool_2d_flat; for float32 where maxpool_2d_plane_blocks, also
// room for kMaxPool2dPlaneBlock input and output planes.
int64_t maxpool_2d_scratch_bytes(const ImageWindow& w, int element_bytes);
// The smallest power of two >= kernel_rows (not inline: the ISA tiers' objects call it, and
// a copy of an inline function compiled with their flags could be the one linked).
int64_t maxpool_2d_ring_rows(int64_t kernel_rows);
// Whether the kernels may keep every input row's maxima and sweep along the whole plane:
// strides of 1 or 2 whose output rows are exactly 1 / stride of the input rows' width, on a
// small plane (not inline, as above).
bool maxpool_2d_flat(const ImageWindow& w);

// Whether f32 takes its planes kMaxPool2dPlaneBlock (or its tier's vector of floats) at a
// time, the planes along the vectors, on tiers with vectors of 8 or 16 floats: planes of at
// most 4096 positions in and out, unless a stride-1 pool sweeps along them (not inline, as
// above).
bool maxpool_2d_plane_blocks(const ImageWindow& w);
// The most planes f32 pools at once; a range of planes that is a multiple of it is a
// multiple of every tier's.
constexpr int64_t kMaxPool2dPlaneBlock = 16;

// The kernels of `isa` (never kAuto).
const MaxPool2dKernels& maxpool_2d_kernels(Isa isa);

}  // namespace twinrt::kernels
