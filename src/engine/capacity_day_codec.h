// The stored form of a capacity day digest's state (models/capacity_digest.h): the blob of a
// capacity_day row (src/store/capacity_tables.h), whose other columns hold the day's figures.
// Layout, little-endian: u8 version (1); the closed bins in thousandths of a core, ascending:
// varint count, then each as a varint step from the one before (the first from 0: a byte or two
// a bin); f64 closed sum, closed max; i64 closed end, open from; varint open bins, per bin i64
// start and f64 cores; f64 closed co-stop %-seconds and seconds, the same open; i64 reach; i64
// block seen. Varints are LEB128. A blob that does not read back whole is an error.
#ifndef VRECON_SRC_ENGINE_CAPACITY_DAY_CODEC_H_
#define VRECON_SRC_ENGINE_CAPACITY_DAY_CODEC_H_

#include <string>
#include <string_view>

#include "models/capacity_digest.h"
#include "src/core/status.h"

namespace vrecon {

std::string EncodeDemandDay(const models::DemandDay& d);
// `day` is the row's day_ns (not in the blob).
StatusOr<models::DemandDay> DecodeDemandDay(std::string_view blob, TimeNs day);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_CAPACITY_DAY_CODEC_H_
