// Printing a tensor exactly as PyTorch 1.13 prints it (torch/_tensor_str.py): the same formatter
// (_Formatter), the same nesting and line breaking (_tensor_str_with_formatter, _vector_str), the
// same summarisation above 1000 elements (get_summarized_data) and the same suffixes
// (_str_intern, _add_suffixes), with PyTorch's default print options.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "strided/tensor/tensor.h"

namespace strided {

namespace {

// torch.set_printoptions defaults (_tensor_str.py, __PrinterOptions).
constexpr int kPrecision = 4;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr int64_t kLineWidth = 80;

std::string printf_double(const char* format, double v) {
  char buf[512];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// Python's '{}'/'{:.Nf}'/'{:.Ne}' spell non-finite floats "nan", "inf" and "-inf" (never "-nan").
std::string non_finite(double v) {
  if (std::isnan(v)) return "nan";
  return v < 0 ? "-inf" : "inf";
}
std::string fixed(double v, int decimals) {
  if (!std::isfinite(v)) return non_finite(v);
  const std::string format = "%." + std::to_string(decimals) + "f";
  return printf_double(format.c_str(), v);
}
std::string scientific(double v) {
  if (!std::isfinite(v)) return non_finite(v);
  // C's %e and Python's e format agree: at least two exponent digits, e.g. 1.0000e+08.
  const std::string format = "%." + std::to_string(kPrecision) + "e";
  return printf_double(format.c_str(), v);
}

std::string pad_left(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

// _Formatter: one width for all the elements printed, and for floating dtypes a mode chosen from
// the nonzero finite values: integral ("1."), fixed ("0.5000") or scientific ("1.0000e+08").
class Formatter {
 public:
  Formatter(DType dtype, const std::vector<Scalar>& values)
      : floating_(is_floating_point(dtype)) {
    if (!floating_) {
      for (const Scalar& v : values) width_ = std::max(width_, v.to_string().size());
      return;
    }
    std::vector<double> finite;
    for (const Scalar& v : values) {
      const double d = v.to_double();
      if (std::isfinite(d) && d != 0.0) finite.push_back(d);
    }
    if (finite.empty()) return;  // zeros and non-finite values only: integral mode, width 1
    double lo = std::fabs(finite[0]), hi = lo;
    for (double d : finite) {
      lo = std::min(lo, std::fabs(d));
      hi = std::max(hi, std::fabs(d));
      if (d != std::ceil(d)) int_mode_ = false;
    }
    // The thresholds are PyTorch's: a range above 1000x or a value above 1e8 (or, for non-integral
    // values, below 1e-4) switches to scientific notation.
    if (hi / lo > 1000.0 || hi > 1.0e8 || (!int_mode_ && lo < 1.0e-4)) {
      sci_mode_ = true;
      for (double d : finite) width_ = std::max(width_, scientific(d).size());
    } else if (int_mode_) {
      for (double d : finite) width_ = std::max(width_, fixed(d, 0).size() + 1);  // the '.'
    } else {
      for (double d : finite) width_ = std::max(width_, fixed(d, kPrecision).size());
    }
  }

  size_t width() const { return width_; }

  std::string format(const Scalar& v) const {
    std::string s;
    if (!floating_) {
      s = v.to_string();
    } else {
      const double d = v.to_double();
      if (sci_mode_) {
        s = scientific(d);
      } else if (int_mode_) {
        s = fixed(d, 0);
        if (std::isfinite(d)) s += '.';
      } else {
        s = fixed(d, kPrecision);
      }
    }
    return pad_left(s, width_);
  }

 private:
  bool floating_;
  bool int_mode_ = true;
  bool sci_mode_ = false;
  size_t width_ = 1;
};

// How one element prints: a real one through its formatter; a complex one (_tensor_str.py,
// _val_formatter) as its real part through the first formatter and its imaginary part, with "j",
// through the second, joined by "+" unless the imaginary part's string starts with a sign.
struct Elements {
  const Formatter& real;
  const Formatter* imag = nullptr;  // complex tensors only
  size_t width() const { return real.width() + (imag ? imag->width() + 1 : 0); }
  std::string format(const Scalar& re, const Scalar& im) const {
    if (!imag) return real.format(re);
    std::string i = imag->format(im) + "j";
    i.erase(0, i.find_first_not_of(' '));
    return real.format(re) + (i[0] == '+' || i[0] == '-' ? "" : "+") + i;
  }
};

// The elements print reads: all of them, or with summarize only the first and last kEdgeItems
// along every dim longer than 2 * kEdgeItems. A complex tensor's element is read as its two
// parts (the imaginary one negated under the conjugate bit); `part` picks one for collect.
class Printer {
 public:
  Printer(const Tensor& t, bool summarize) : t_(t), summarize_(summarize) {
    base_ = static_cast<const char*>(t.storage().data());
    complex_ = is_complex(t.dtype());
    part_dtype_ = real_value_type(t.dtype());
  }

  // Indices along dim d that print shows (-1 marks the "..." between the two edges).
  std::vector<int64_t> shown(size_t d) const {
    const int64_t n = t_.sizes()[d];
    std::vector<int64_t> out;
    if (summarize_ && n > 2 * kEdgeItems) {
      for (int64_t i = 0; i < kEdgeItems; ++i) out.push_back(i);
      out.push_back(-1);
      for (int64_t i = n - kEdgeItems; i < n; ++i) out.push_back(i);
    } else {
      for (int64_t i = 0; i < n; ++i) out.push_back(i);
    }
    return out;
  }

  // Part 0 is the element (or its real part), part 1 its imaginary part.
  Scalar value(int64_t offset, int part = 0) const {
    if (!complex_) return load_scalar(base_ + offset * t_.element_size(), t_.dtype());
    const int64_t half = t_.element_size() / 2;
    const Scalar v = load_scalar(base_ + offset * t_.element_size() + part * half, part_dtype_);
    return part == 1 && t_.is_conj() ? Scalar(-v.to_double()) : v;
  }
  std::string format(int64_t offset, const Elements& f) const {
    return f.format(value(offset, 0), complex_ ? value(offset, 1) : Scalar());
  }

  void collect(size_t d, int64_t offset, std::vector<Scalar>& out, int part = 0) const {
    if (d == t_.sizes().size()) {
      out.push_back(value(offset, part));
      return;
    }
    for (int64_t i : shown(d))
      if (i >= 0) collect(d + 1, offset + i * t_.strides()[d], out, part);
  }

  // _tensor_str_with_formatter for the sub-tensor at dim d, printed at the given indent.
  std::string str(size_t d, int64_t offset, int64_t indent, const Elements& f) const {
    const size_t ndim = t_.sizes().size();
    if (d == ndim) return format(offset, f);
    if (d + 1 == ndim) return vector_str(d, offset, indent, f);
    std::vector<std::string> slices;
    for (int64_t i : shown(d))
      slices.push_back(i < 0 ? "..." : str(d + 1, offset + i * t_.strides()[d], indent + 1, f));
    const std::string sep = "," + std::string(ndim - d - 1, '\n') +
                            std::string(static_cast<size_t>(indent + 1), ' ');
    std::string out = "[";
    for (size_t k = 0; k < slices.size(); ++k) out += (k ? sep : "") + slices[k];
    return out + "]";
  }

 private:
  // _vector_str: elements joined by ", ", as many per line as fit in the line width.
  std::string vector_str(size_t d, int64_t offset, int64_t indent, const Elements& f) const {
    const int64_t element_length = static_cast<int64_t>(f.width()) + 2;
    const int64_t per_line = std::max<int64_t>(1, (kLineWidth - indent) / element_length);
    std::vector<std::string> data;
    for (int64_t i : shown(d))
      data.push_back(i < 0 ? " ..." : format(offset + i * t_.strides()[d], f));
    std::string out = "[";
    for (size_t k = 0; k < data.size(); ++k) {
      if (k > 0)
        out += static_cast<int64_t>(k) % per_line == 0
                   ? ",\n" + std::string(static_cast<size_t>(indent + 1), ' ')
                   : ", ";
      out += data[k];
    }
    return out + "]";
  }

  const Tensor& t_;
  bool summarize_;
  const char* base_ = nullptr;
  bool complex_ = false;
  DType part_dtype_ = DType::Float32;
};

// str(tuple(shape)) in Python: "(0, 3)", "(0,)".
std::string python_tuple(IntList sizes) {
  std::string out = "(";
  for (size_t i = 0; i < sizes.size(); ++i) out += (i ? ", " : "") + std::to_string(sizes[i]);
  if (sizes.size() == 1) out += ",";
  return out + ")";
}

}  // namespace

std::string to_string(const Tensor& t) {
  STRIDED_CHECK(t.defined(), "to_string", "the tensor is undefined");
  STRIDED_CHECK(t.device().is_cpu(), "to_string", "the tensor is on ", t.device().str(),
                "; copy it to the CPU to print its values");
  const std::string prefix = "tensor(";
  const int64_t indent = static_cast<int64_t>(prefix.size());
  std::vector<std::string> suffixes;
  std::string body;
  const int64_t numel = t.numel();
  if (numel == 0) {
    // An empty tensor shows its shape unless it is (0,), and its dtype unless it is the default
    // float32: with no elements nothing else tells an int64 tensor from a float one.
    if (t.dim() != 1) suffixes.push_back("size=" + python_tuple(t.sizes()));
    if (t.dtype() != DType::Float32) suffixes.push_back("dtype=torch." + std::string(name(t.dtype())));
    body = "[]";
  } else {
    // The defaults for values: float32 for floats (complex64 for complex values, whose parts
    // are float32), int64 for integers, and bool.
    const DType d = t.dtype();
    if (d != DType::Float32 && d != DType::Int64 && d != DType::Bool && d != DType::Complex64)
      suffixes.push_back("dtype=torch." + std::string(name(d)));
    const bool summarize = numel > kThreshold;
    const Printer printer(t, summarize);
    std::vector<Scalar> shown, shown_imag;
    printer.collect(0, t.storage_offset(), shown);
    const Formatter formatter(real_value_type(d), shown);
    if (is_complex(d)) {
      // Each part has its own formatter (_tensor_str, formatter1 and formatter2).
      printer.collect(0, t.storage_offset(), shown_imag, 1);
      const Formatter imag_formatter(real_value_type(d), shown_imag);
      body = printer.str(0, t.storage_offset(), indent, Elements{formatter, &imag_formatter});
    } else {
      body = printer.str(0, t.storage_offset(), indent, Elements{formatter});
    }
  }
  // _add_suffixes: a suffix goes on the last line when it fits in 80 columns, else on a new line.
  std::string out = prefix + body;
  const size_t newline = out.rfind('\n');
  int64_t last_line = static_cast<int64_t>(out.size()) -
                      (newline == std::string::npos ? -1 : static_cast<int64_t>(newline)) + 1;
  for (const std::string& s : suffixes) {
    const int64_t len = static_cast<int64_t>(s.size());
    if (last_line + len + 2 > kLineWidth) {
      out += ",\n" + std::string(static_cast<size_t>(indent), ' ') + s;
      last_line = indent + len;
    } else {
      out += ", " + s;
      last_line += len + 2;
    }
  }
  return out + ")";
}

int64_t printed_elements(const Tensor& t) {
  const int64_t numel = t.numel();
  if (numel <= kThreshold) return numel;
  Checked shown = 1;
  for (int64_t s : t.sizes()) shown *= std::min(s, 2 * kEdgeItems);
  return shown.overflowed() ? INT64_MAX : shown.value();
}

std::ostream& operator<<(std::ostream& out, const Tensor& t) { return out << to_string(t); }

}  // namespace strided
