// QLinearConv's requantization parameters, read at run time; shared by the NCHW op
// (conv_integer.cc) and the NHWC one (qlinear_conv_nhwc.cc). Inputs at QLinearConv's
// positions: x_scale 1, w_scale 4, y_scale 6, y_zero_point 7, B 8.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/op.h"

namespace twinrt::quant {

struct QLinearRequant {
  std::vector<float> multiplier;  // x_scale * w_scale[m] / y_scale, per output channel
  std::vector<int32_t> bias;      // per output channel (zeros when absent)
  int32_t y_zero = 0;
  DataType y_type = DataType::kUInt8;
};

Status read_qlinear_requant(RunContext& ctx, int64_t channels, QLinearRequant& rq);

}  // namespace twinrt::quant
