#include "report.h"

#include <algorithm>
#include <sstream>

#include "budget.h"
#include "strided/pictures/picture.h"

namespace strided::explore {

namespace {

std::string tuple(IntList v) {
  std::string out = "(";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
  if (v.size() == 1) out += ",";
  return out + ")";
}

// Every line of text, indented (empty lines stay empty).
std::string indent(const std::string& text, const std::string& pad) {
  std::string out;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    if (end > begin) out += pad + text.substr(begin, end - begin);  // no trailing blanks
    out += "\n";
    begin = end + 1;
  }
  return out;
}

std::string storage_words(const Tensor& t) {
  const int64_t bytes = t.storage().nbytes();
  return std::to_string(bytes / t.element_size()) + " x " + std::string(name(t.dtype())) + " (" +
         std::to_string(bytes) + " bytes)";
}

std::string memory_line(const std::vector<StepResult>& steps, size_t i) {
  const StepResult& s = steps[i];
  const std::string prev = "step " + std::to_string(i);
  switch (s.relation) {
    case StepResult::Relation::New: return "new tensor: a storage of " + storage_words(s.tensor);
    case StepResult::Relation::Same: return "the same tensor as " + prev + ": nothing copied";
    case StepResult::Relation::View:
      return "view: shares the storage of " + prev + ", nothing copied";
    case StepResult::Relation::InPlace:
      // The step written into is seen_by's first; the steps between ran the arguments.
      return "in place: writes into step " + std::to_string(s.seen_by.front() + 1) +
             "'s elements and returns that tensor (self), nothing copied";
    case StepResult::Relation::Copy: break;
  }
  return "copy: a new storage of " + storage_words(s.tensor);
}

// A long expression's step is shown by its end: the text of step 800 of a 4096-character chain
// would otherwise repeat most of the chain.
std::string step_text(const std::string& text) {
  constexpr size_t kShown = 200;
  if (text.size() <= kShown) return text;
  return "..." + text.substr(text.size() - (kShown - 3));
}

std::string budget_words(const Meter& m) {
  return std::to_string(m.print_left()) + " of the print budget (" +
         std::to_string(kPrintBudget) + " numbers per request) left";
}

// The steps that share the written storage see the write: their numbers, and the values of the
// first of them (the base, as a rule) after the write, when it is not the written tensor itself.
void write_seen(std::ostringstream& out, const std::vector<StepResult>& steps,
                const StepResult& s, Meter& meter) {
  if (s.seen_by.size() < 2) return;
  std::string numbers;
  for (size_t k = 1; k < s.seen_by.size(); ++k)
    numbers += (k > 1 ? ", " : "") + std::to_string(s.seen_by[k] + 1);
  out << "  seen by         step" << (s.seen_by.size() > 2 ? "s " : " ") << numbers
      << ", which share" << (s.seen_by.size() > 2 ? "" : "s") << " its storage\n";
  const StepResult& base = steps[s.seen_by[1]];
  const int64_t shown = printed_elements(base.tensor);
  if (meter.take(shown))
    out << "  step " << s.seen_by[1] + 1 << " after the write\n"
        << indent(to_string(base.tensor), "    ");
}

}  // namespace

std::string report(const std::vector<StepResult>& steps, Meter& meter) {
  return report_parts(steps, meter).text;
}

Report report_parts(const std::vector<StepResult>& steps, Meter& meter) {
  Report parts;
  std::ostringstream out;
  for (size_t i = 0; i < steps.size(); ++i) {
    const StepResult& s = steps[i];
    const Tensor& t = s.tensor;
    // The sizes and strides are written twice (as tuples and in shape:stride notation).
    if (!meter.take(2 * layout_numbers(t))) {
      parts.not_shown = "steps " + std::to_string(i + 1) + " to " + std::to_string(steps.size()) +
                        " not shown: the print budget of " + std::to_string(kPrintBudget) +
                        " numbers per request is spent";
      out << (i ? "\n" : "") << parts.not_shown << "\n";
      break;
    }
    ShownStep& shown_step = parts.shown.emplace_back();
    shown_step.text = step_text(s.text);
    out << (i ? "\n" : "") << "step " << i + 1 << ": " << shown_step.text << "\n";
    out << "  shape           " << tuple(t.sizes()) << "\n";
    out << "  strides         " << tuple(t.strides()) << "    shape:stride " << t.layout()
        << "\n";
    out << "  storage offset  " << t.storage_offset() << "\n";
    out << "  dtype           " << name(t.dtype()) << ", " << t.numel() << " element"
        << (t.numel() == 1 ? "" : "s") << "\n";
    out << "  contiguous      " << (t.is_contiguous() ? "yes" : "no")
        << "  (non-overlapping and dense: " << (t.is_non_overlapping_and_dense() ? "yes" : "no")
        << ")\n";
    out << "  memory          " << memory_line(steps, i) << "\n";
    const int64_t shown = printed_elements(t);
    // A step a later one wrote into shows its values as they were then.
    const Tensor& values = s.before_write.defined() ? s.before_write : t;
    if (meter.take(shown)) {
      shown_step.repr = to_string(values);
      out << "  values" << (s.relation == StepResult::Relation::InPlace ? " after the write" : "")
          << "\n" << indent(*shown_step.repr, "    ");
    } else {
      out << "  values          not printed: PyTorch's print shows " << shown << " of its "
          << t.numel() << " elements, with " << budget_words(meter) << "\n";
    }
    if (s.relation == StepResult::Relation::InPlace) write_seen(out, steps, s, meter);
    PictureOptions o;
    o.cells_per_row = 16;
    const int64_t storage_cells = t.storage().nbytes() / t.element_size();
    const int64_t cells = std::min(t.numel(), o.max_cells) + std::min(storage_cells, o.max_cells);
    if (!meter.take(cells)) {
      out << "  where each element lives: not drawn, with " << budget_words(meter) << "\n";
      continue;
    }
    out << "  where each element lives\n";
    try {
      out << indent(text_picture(t, o), "    ");
    } catch (const Error& e) {
      out << "    (no picture: " << e.what() << ")\n";
    }
  }
  parts.text = out.str();
  return parts;
}

}  // namespace strided::explore
