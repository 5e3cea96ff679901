// A QuantileSketch (src/core/quantile_sketch.h) inside a stored digest blob: the zero bucket
// (varint count, f64 sum), varint positive buckets, per bucket zigzag-varint index delta, varint
// count and f64 sum, the same for the negative buckets. Varints are LEB128, values little-endian.
#ifndef VRECON_SRC_ENGINE_SKETCH_CODEC_H_
#define VRECON_SRC_ENGINE_SKETCH_CODEC_H_

#include <string>
#include <string_view>

#include "src/core/quantile_sketch.h"

namespace vrecon {

void PutSketch(std::string* out, const QuantileSketch& s);
// Reads one from the front of `in`; false when it does not read back whole.
bool TakeSketch(std::string_view* in, QuantileSketch* s);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_SKETCH_CODEC_H_
