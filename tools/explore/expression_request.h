// strided-explore --jsonl's expression request: what `strided-explore EXPRESSION` prints, as JSON,
// so that a client (the book's Try it blocks, tools/embed/embed/tryit.py) reads fields instead of
// parsing the text report:
//   {"expression":"arange(4).view(2, 2)"}
//     -> {"results":[{"text","shape","stride","storage_offset","is_contiguous","shares_storage",
//                     "shares_prev","numel","dtype","memory","values","repr"}, ...],
//         "report":"step 1: arange(4)\n  shape ..."}
// one entry per step the report shows: the layout fields mean what a chain result's mean
// (jsonl.h), the first step being the start tensor (shares_prev false: it has no previous step);
// text is the step's text as the report's heading words it, dtype the dtype's name, memory what
// the step did to memory in one word (new, self, view, copy, in_place); values (row-major, as a
// chain's) and repr (the values as PyTorch prints them, the report's own text) are there when the
// report printed the values, values only when numel <= kMaxValues too. A step a later one wrote
// into answers its values as they were after it, as the report shows them. report is the whole
// text report. Past the print budget, where the report stops, the results end with an error entry
// in its words. An expression that fails is {"error":true,"message", "explanation" (a layout
// rule's refusal, as error_json writes it), "column" (1-based, where the caret points), "report"
// (the message with the expression and its caret, as the program writes it on standard error)}.
#pragma once

#include <optional>

#include "jsonl.h"

namespace strided::explore {

// The answer to {"expression":...}, or nullopt when the request has no "expression" key.
std::optional<Json> expression_request(const Request& request, Meter& m);

}  // namespace strided::explore
