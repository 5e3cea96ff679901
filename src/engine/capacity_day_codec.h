// The stored form of a capacity day digest (models/capacity_digest.h): the blob of a
// capacity_day_state row (src/store/capacity_tables.h); the day is the row's. Layout,
// little-endian: u8 version (1); u8 1 when the values carry co-stop, else 0; varint runs of
// consecutive values, per run varint gap (its first index less the previous run's end) and varint
// length; per value the zigzag-varint step of its demand (thousandths of a core) from the value
// before (the first from 0), then, with co-stop, the same for co-stop + 1 (hundredths of a
// percent; 0: none); i64 reach; i64 block seen. A full day of smooth demand takes a byte or two a
// value. Varints are LEB128. A blob that does not read back whole is an error.
#ifndef VRECON_SRC_ENGINE_CAPACITY_DAY_CODEC_H_
#define VRECON_SRC_ENGINE_CAPACITY_DAY_CODEC_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/capacity_digest.h"
#include "src/core/status.h"

namespace vrecon {

std::string EncodeDemandDay(const models::DemandDay& d);
// `day` is the row's day_ns (not in the blob).
StatusOr<models::DemandDay> DecodeDemandDay(std::string_view blob, TimeNs day);
// What a right size reads of a day, without decoding it whole: its values appended to `milli`,
// and its co-stop's sum and count (hundredths of a percent) added to `costop`.
Status AppendDayValues(std::string_view blob, std::vector<int32_t>* milli, std::pair<int64_t, int64_t>* costop);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_CAPACITY_DAY_CODEC_H_
