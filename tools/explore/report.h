// The text the explorer prints for an evaluated expression: per step, the layout facts, what the
// step did to memory, the values as PyTorch prints them, and the text picture of the storage.
#pragma once

#include <string>
#include <vector>

#include "evaluate.h"

namespace strided::explore {

std::string report(const std::vector<StepResult>& steps);

}  // namespace strided::explore
