// The text the explorer prints for an evaluated expression: per step, the layout facts, what the
// step did to memory, the values as PyTorch prints them, and the text picture of the storage.
#pragma once

#include <string>
#include <vector>

#include "evaluate.h"

namespace strided::explore {

// Each step's sizes, strides, values and picture are charged to meter's print budget; past it, a
// step's values or picture are not written, and past it again, the steps left are not shown.
std::string report(const std::vector<StepResult>& steps, Meter& meter);

}  // namespace strided::explore
