// Chapter 1, Memory topology: placeholder while the chapter is written.
#include "book/book.h"
#include "strided/strided.h"

using namespace strided;

int main(int argc, char** argv) {
  book::Chapter ch("01_memory_topology", "Memory topology");
  ch.section("layout", "Default layout");
  ch.claim("MT-10", "A fresh r×c tensor is row-major: offset 0 and strides (c, 1).", [](book::Check& c) {
    //! [fresh]
    Tensor m = zeros({2, 3});
    //! [fresh]
    c.equal("strides", m.strides(), Shape{3, 1});
    c.equal("storage_offset", m.storage_offset(), 0);
    c.value("fresh_strides", m.strides());
  });
  ch.claim("MT-03", "Element (i, j) of a float32 2×3 tensor is at data_ptr + 4·(3i + j).", [](book::Check& c) {
    Tensor m = arange(6, {DType::Float32});
    c.equal("numel", m.numel(), 6);
    c.text("hello", "a <b>text</b> & more");
  });
  return ch.main(argc, argv);
}
