// Chapter 2, section "Conversions that look like views": a conversion copies (DT-03) and rewrites
// every element's bits (DT-04), unless the dtype is already the tensor's (DT-05); a reinterpreting
// view reads the same bytes (DT-06); a conversion can lose information (DT-07). The code between
// //! [name] markers is shown on the chapter's page.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "02_views/views.h"
#include "book/book.h"
#include "strided/pictures/picture.h"
#include "strided/strided.h"

using namespace strided;
using views::pytorch;

namespace {

// "0x3E8": a value's bits in hexadecimal, as the page writes them.
std::string hex(uint64_t v) {
  static const char* digits = "0123456789ABCDEF";
  std::string s;
  do {
    s.insert(s.begin(), digits[v % 16]);
    v /= 16;
  } while (v);
  return "0x" + s;
}

}  // namespace

void views::dtype(book::Chapter& ch) {
  // ---- Conversions ------------------------------------------------------------------------------------
  ch.section("dtype", "Conversions that look like views");

  ch.claim("DT-03",
           "A dtype conversion copies: b = a.to(float16) of a = arange(9).reshape(3,3) owns new "
           "storage, and after b[0][0] = 1000, a[0][0] is still 0.",
           [](book::Check& c) {
             const int64_t before = Storage::allocation_count();
             //! [convert]
             Tensor a = arange(9).reshape({3, 3});
             Tensor b = a.to(DType::Float16);
             b.set({0, 0}, 1000);  // b[0][0] = 1000
             //! [convert]
             c.equal("allocations: one by arange, one by to()", Storage::allocation_count() - before,
                     int64_t{2});
             c.equal("a[0][0]", a.at({0, 0}).to_int(), int64_t{0}, "convert_a00");
             c.equal("b[0][0]", b.at({0, 0}).to_double(), 1000.0, "convert_b00");
             c.equal("b shares a's storage", b.storage().is_same(a.storage()), false);
             pytorch().compare(c, "convert", "b", b, {&a});
             pytorch().compare_value(c, "convert", "a[0][0].item()", a.at({0, 0}).to_int());
           });

  ch.claim("DT-04",
           "The same number has unrelated bits in different dtypes (1000 is 0x3E8 as int64 and "
           "0x63D0 as float16), so a conversion rewrites every element.",
           [](book::Check& c) {
             //! [bits]
             Tensor i = full({1}, 1000, {DType::Int64});
             Tensor h = i.to(DType::Float16);
             uint64_t i_bits = 0;
             uint16_t h_bits = 0;
             std::memcpy(&i_bits, i.data_ptr(), sizeof i_bits);
             std::memcpy(&h_bits, h.data_ptr(), sizeof h_bits);
             //! [bits]
             c.equal("int64 bits", hex(i_bits), std::string("0x3E8"), "bits_int64");
             c.equal("float16 bits", hex(h_bits), std::string("0x63D0"), "bits_float16");
             const auto lower = [](std::string s) {
               std::transform(s.begin(), s.end(), s.begin(),
                              [](unsigned char ch) { return std::tolower(ch); });
               return s;
             };
             pytorch().compare_value(c, "bits", "i_bits", lower(hex(i_bits)));
             pytorch().compare_value(c, "bits", "h_bits", lower(hex(h_bits)));
           });

  ch.claim("DT-05",
           "Converting to the dtype a tensor already has returns the tensor itself, with no "
           "allocation.",
           [](book::Check& c) {
             const int64_t before = Storage::allocation_count();
             //! [same_dtype]
             Tensor a = arange(9).reshape({3, 3});  // int64
             Tensor same = a.to(DType::Int64);      // a itself
             //! [same_dtype]
             c.equal("allocations: arange's alone", Storage::allocation_count() - before, int64_t{1});
             c.equal("same storage, sizes, strides, offset, dtype", book::same_layout(same, a), true);
             Tensor forced = a.to(DType::Int64, /*copy=*/true);
             c.equal("to(int64, copy=True) shares a's storage", forced.storage().is_same(a.storage()),
                     false);
             pytorch().compare_value(c, "same_dtype", "same is a", book::same_layout(same, a));
             pytorch().compare(c, "same_dtype", "a.to(torch.int64, copy=True)", forced, {&a});
           });

  ch.claim("DT-06",
           "Reinterpreting float32 bits as int32 is a trivial view: no copy, and 1.0 reads "
           "as 0x3F800000 = 1065353216.",
           [](book::Check& c) {
             const int64_t before = Storage::allocation_count();
             //! [reinterpret]
             Tensor f = ones({4});                // float32
             Tensor bits = f.view(DType::Int32);  // the same bytes, read as int32
             //! [reinterpret]
             c.equal("allocations: ones' alone", Storage::allocation_count() - before, int64_t{1});
             // The same bytes, another reading: each int64 of w is two int32 cells of halves.
             const Tensor w = arange(3), halves = w.view(DType::Int32);
             pytorch().compare(c, "reinterpret", "w.view(torch.int32)", halves, {&w});
             c.figure("reinterpret_w", tensor_svg(w, "w"),
                      "w = arange(3): " + std::to_string(w.numel()) + " int64 cells of " +
                          std::to_string(w.element_size()) + " bytes, " +
                          std::to_string(w.nbytes()) + " bytes in all.");
             c.figure("reinterpret_halves", tensor_svg(halves, "w.view(torch.int32)"),
                      "w.view(torch.int32): the same " + std::to_string(halves.nbytes()) +
                          " bytes, drawn as the " + std::to_string(halves.numel()) +
                          " int32 cells they now read as; each int64 of w is two of them.");
             pytorch().compare(c, "reinterpret", "f.view(torch.int32)", bits, {&f});
             c.equal("bits[0]", bits.at({0}).to_int(), int64_t{1065353216}, "reinterpret_int");
             c.equal("in hexadecimal", hex(static_cast<uint64_t>(bits.at({0}).to_int())),
                     std::string("0x3F800000"),
                     "reinterpret_hex");
             bits.set({1}, int64_t{0x40000000});  // the bits of 2.0f
             c.equal("f after writing 0x40000000 into bits[1]", f.to_vector(),
                     std::vector<double>{1, 2, 1, 1});
             pytorch().compare(c, "reinterpret", "f", f);
           });

  ch.claim("DT-06.bytes",
           "view(torch.uint8) shows a tensor's bytes: f = [1.0, −2.0] in float32 reads as the 8 "
           "bytes 0, 0, 128, 63, 0, 0, 0, 192, low byte first, a view of f; as int8 the bytes "
           "over 127 read negative, and bytes 4 to 8 read back as float32 are −2.0.",
           [](book::Check& c) {
             //! [float_bytes]
             Tensor f = from_values({1.0, -2.0}, {2});  // two float32: 8 bytes
             Tensor b = f.view(DType::UInt8);           // the same 8 bytes, one uint8 each
             //! [float_bytes]
             c.equal("f.view(uint8)", b.to_vector(), std::vector<double>{0, 0, 128, 63, 0, 0, 0, 192},
                     "float_bytes");
             c.equal("it shares f's storage", b.storage().is_same(f.storage()), true);
             const Tensor halves = f.view(DType::Int16), signed_bytes = b.view(DType::Int8);
             const Tensor second = b.slice(0, 4, 8).view(DType::Float32);
             c.value("float_int16", halves.to_vector());
             c.value("float_int8", signed_bytes.to_vector());
             pytorch().compare(c, "float_bytes", "b", b, {&f});
             pytorch().compare(c, "float_bytes", "f.view(torch.int16)", halves, {&f});
             pytorch().compare(c, "float_bytes", "b.view(torch.int8)", signed_bytes, {&f});
             pytorch().compare(c, "float_bytes", "b[4:].view(torch.float32)", second, {&f});
           });

  ch.claim("DT-09",
           "view(dtype) between element sizes of ratio r: to the larger size the last dim must have "
           "stride 1, and its size, the storage offset and every other stride must divide by r; to "
           "the smaller size the last dim must have stride 1. Otherwise PyTorch refuses, and so "
           "does the library, in PyTorch's words.",
           [](book::Check& c) {
             //! [view_dtype_rules]
             Tensor w = arange(6, {DType::Int32});  // six int32: three int64 once paired
             Tensor longs = w.view(DType::Int64);   // (3,) stride 1: size, offset, strides halve
             // Refused: w[:5] (an odd size), w[1:5] (an odd offset), w.as_strided((2, 2), (3, 1))
             // (an odd stride), and, the other way, arange(4).view(2, 2).t() as int32 (a last
             // stride of 2).
             //! [view_dtype_rules]
             pytorch().compare(c, "view_dtype_rules", "w.view(torch.int64)", longs, {&w});
             // Each refusal beside PyTorch's recorded one: the table shows both messages.
             const std::vector<std::pair<std::string, std::function<Tensor()>>> refused = {
                 {"w[:5].view(torch.int64)", [&] { return w.slice(0, 0, 5).view(DType::Int64); }},
                 {"w[1:5].view(torch.int64)", [&] { return w.slice(0, 1, 5).view(DType::Int64); }},
                 {"w.as_strided((2, 2), (3, 1)).view(torch.int64)",
                  [&] { return w.as_strided({2, 2}, {3, 1}).view(DType::Int64); }},
                 {"torch.arange(4).view(2, 2).t().view(torch.int32)",
                  [] { return arange(4).view({2, 2}).t().view(DType::Int32); }}};
             std::vector<std::vector<std::string>> rows;
             for (const auto& entry : refused) {
               // Named, not bound: a lambda may not capture a structured binding before C++20's
               // P1091 reached every compiler (clang refuses it).
               const std::string& expression = entry.first;
               const std::function<Tensor()>& run = entry.second;
               pytorch().compare_error(c, "view_dtype_rules", expression, [&] { run(); });
               std::string ours = "(no error)";
               try {
                 run();
               } catch (const Error& e) {
                 ours = e.what();
               }
               rows.push_back({expression, pytorch().error_message("view_dtype_rules", expression),
                               ours});
             }
             c.table("view_dtype_refusals",
                     {"expression", "PyTorch " + pytorch().torch() + " (recorded)", "this library"},
                     rows);
           });

  ch.claim("DT-07", "Conversions can lose information: int64 2049 becomes 2048 in float16.",
           [](book::Check& c) {
             //! [lossy]
             Tensor i = full({1}, 2049, {DType::Int64});
             Tensor h = i.to(DType::Float16);
             //! [lossy]
             c.equal("float16 value", h.at({0}).to_double(), 2048.0, "lossy_out");
             pytorch().compare(c, "lossy", "h", h);
             c.value("lossy_in", i.at({0}).to_int());
           });
}
