#include "jit/decisions.h"

#include <stdexcept>

namespace a64jit {

namespace {
struct PlantRow {
  Plant plant;
  const char* name;
};
constexpr PlantRow kPlants[] = {
    {Plant::kNone, "none"},
    {Plant::kFlipBranch, "flip-branch"},
    {Plant::kDropDecref, "drop-decref"},
    {Plant::kCacheIndex, "cache-index"},
};
}  // namespace

Plant ParsePlant(const std::string& name) {
  for (const PlantRow& row : kPlants) {
    if (name == row.name && row.plant != Plant::kNone) return row.plant;
  }
  throw std::invalid_argument("unknown plant '" + name +
                              "' (expected flip-branch, drop-decref or cache-index)");
}

const char* PlantName(Plant p) {
  for (const PlantRow& row : kPlants) {
    if (row.plant == p) return row.name;
  }
  return "?";
}

const char* DecisionName(Decision d) {
  static constexpr const char* kNames[] = {
#define A64JIT_DECISION_NAME(name, text) text,
      A64JIT_DECISION_KINDS(A64JIT_DECISION_NAME)
#undef A64JIT_DECISION_NAME
  };
  return kNames[static_cast<size_t>(d)];
}

bool Decisions::Take(Decision kind, int bc) {
  const bool taken = !limit_ || static_cast<int>(records_.size()) < *limit_;
  records_.push_back({kind, bc, taken});
  return taken;
}

bool Decisions::Planted(Plant p) {
  if (p != plant_ || plant_applied_ || records_.empty() || !records_.back().taken) return false;
  plant_applied_ = true;
  planted_at_ = static_cast<int>(records_.size());
  return true;
}

int Decisions::taken() const {
  int n = 0;
  for (const Record& r : records_) n += r.taken ? 1 : 0;
  return n;
}

std::string Decisions::Text() const {
  std::string out;
  for (size_t i = 0; i < records_.size(); i++) {
    const Record& r = records_[i];
    out += std::to_string(i + 1) + (r.taken ? " taken " : " declined ") + DecisionName(r.kind);
    out += r.bc >= 0 ? " bc " + std::to_string(r.bc) + "\n" : "\n";
  }
  if (plant_applied_) {
    out += std::string("plant ") + PlantName(plant_) + " at decision " +
           std::to_string(planted_at_) + "\n";
  }
  return out;
}

}  // namespace a64jit
