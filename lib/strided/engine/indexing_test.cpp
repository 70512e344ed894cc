// t.index({...}) as Python's t[...]: basic indexing is a view, a list of integers is a copy whose
// layout follows PyTorch's index kernel. Every expectation was printed by torch 1.13 for the same
// Python index (written in the comment beside it).
#include <doctest/doctest.h>

#include "strided/core/error_of.h"
#include "strided/tensor/tensor.h"

using namespace strided;
using indexing::Ellipsis;
using indexing::None;
using indexing::Slice;
using List = std::vector<int64_t>;
using Values = std::vector<double>;

namespace {
Tensor arange_shaped(IntList sizes) {
  return arange(checked_numel(sizes, "test")).view(sizes);
}

void check(const Tensor& t, const Shape& sizes, const Shape& strides, const Values& values) {
  CHECK(t.sizes() == sizes);
  CHECK(t.strides() == strides);
  CHECK(t.to_vector() == values);
}
}  // namespace

TEST_CASE("basic indexing is a view: integers, slices, None and Ellipsis (IX-04, VW-06)") {
  const Tensor x = arange_shaped({3, 4, 6});
  const int64_t before = Storage::allocation_count();
  // IX-04: x[2, 1:3, 1:6:3] → offset 2*24 + 1*6 + 1 = 55, (2,2):(6,3).
  const Tensor v = x.index({2, Slice(1, 3), Slice(1, 6, 3)});
  CHECK(Storage::allocation_count() == before);
  CHECK(v.storage().is_same(x.storage()));
  CHECK(v.storage_offset() == 55);
  check(v, {2, 2}, {6, 3}, {55, 58, 61, 64});
  const Tensor y = arange_shaped({2, 3, 4});
  // VW-06: y[0, 2, 2] is a 0-d view at offset 10.
  const Tensor e = y.index({0, 2, 2});
  CHECK(e.dim() == 0);
  CHECK(e.storage_offset() == 10);
  // y[1, ..., 2] → (3,):(4,), offset 14.
  const Tensor m = y.index({1, Ellipsis, 2});
  check(m, {3}, {4}, {14, 18, 22});
  CHECK(m.storage_offset() == 14);
  // y[None, ..., None, 1] → (1,2,3,1):(24,12,4,4), offset 1.
  const Tensor n = y.index({None, Ellipsis, None, 1});
  check(n, {1, 2, 3, 1}, {24, 12, 4, 4}, {1, 5, 9, 13, 17, 21});
  CHECK(n.storage_offset() == 1);
  // y[-1, :, ::2], y[..., ...] (torch 1.13 accepts two ellipses and gives y), y[:] is the
  // tensor itself.
  check(y.index({-1, Slice(), Slice(None, None, 2)}), {3, 2}, {4, 2}, {12, 14, 16, 18, 20, 22});
  check(y.index({Ellipsis, Ellipsis}), {2, 3, 4}, {12, 4, 1}, y.to_vector());
  CHECK(y.index({Slice()}).storage().is_same(y.storage()));
  // A 0-d tensor: t[...] and t[None].
  const Tensor s = scalar_tensor(Scalar(int64_t{5}), {DType::Int64});
  check(s.index({Ellipsis}), {}, {}, {5});
  check(s.index({None}), {1}, {1}, {5});
  check(s.index({}), {}, {}, {5});
}

TEST_CASE("basic indexing errors, worded as PyTorch's") {
  const Tensor a = arange_shaped({3, 4});
  CHECK(error_of([&] {
          a.index({0, 0, 0});
        }) == "index(): too many indices for tensor of dimension 2 (3 given)");
  CHECK(error_of([&] {
          a.index({None, 5});
        }) == "index(): index 5 is out of bounds for dimension 1 with size 3");
  CHECK(error_of([&] {
          a.index({1, 5});
        }) == "index(): index 5 is out of bounds for dimension 1 with size 4");
  CHECK(error_of([&] {
          a.index({Ellipsis, 5});
        }) == "index(): index 5 is out of bounds for dimension 1 with size 4");
  CHECK_THROWS_AS(a.index({-4}), Error);
  CHECK(error_of([&] { a.index({Slice(None, None, 0)}); }) == "index(): slice step cannot be zero");
  CHECK(error_of([&] { a.index({Slice(None, None, -1)}); })
            .find("step must be greater than "
                  "zero") != std::string::npos);
  const Tensor s = scalar_tensor(Scalar(int64_t{5}), {DType::Int64});
  CHECK_THROWS_AS(s.index({0}), Error);
  CHECK_THROWS_AS(s.index({List{0}}), Error);
  CHECK_THROWS_AS(Tensor().index({0}), Error);
}

TEST_CASE("a list of integers is advanced indexing: a copy (IX-08, IX-09)") {
  // IX-08: x[0:5] and x[range(0, 5)] hold equal values, but only the slice shares memory.
  Tensor x = arange_shaped({20, 20, 20}).to(DType::Float32);
  const Tensor by_slice = x.index({Slice(0, 5)});
  const int64_t before = Storage::allocation_count();
  const Tensor by_list = x.index({List{0, 1, 2, 3, 4}});
  CHECK(Storage::allocation_count() == before + 1);
  CHECK(by_list.to_vector() == by_slice.to_vector());
  x.set({0, 0, 0}, Scalar(10.0));
  CHECK(by_slice.at({0, 0, 0}).to_double() == 10.0);
  CHECK(by_list.at({0, 0, 0}).to_double() == 0.0);
}

TEST_CASE("advanced indexing: shapes, values and PyTorch's output layout") {
  const Tensor a = arange_shaped({3, 4});
  // a[[0,2]]
  check(a.index({List{0, 2}}), {2, 4}, {4, 1}, {0, 1, 2, 3, 8, 9, 10, 11});
  // a[[-1,0]]
  check(a.index({List{-1, 0}}), {2, 4}, {4, 1}, {8, 9, 10, 11, 0, 1, 2, 3});
  // a.t()[[0,2]]
  check(a.t().index({List{0, 2}}), {2, 3}, {3, 1}, {0, 4, 8, 2, 6, 10});
  // a.t()[:, [0,2]]
  check(a.t().index({Slice(), List{0, 2}}), {4, 2}, {2, 1}, {0, 8, 1, 9, 2, 10, 3, 11});
  // a[:, [0,2]]
  check(a.index({Slice(), List{0, 2}}), {3, 2}, {2, 1}, {0, 2, 4, 6, 8, 10});
  // a[[]]
  check(a.index({List{}}), {0, 4}, {4, 1}, {});
  // a[[0,1],[1,2]]
  check(a.index({List{0, 1}, List{1, 2}}), {2}, {1}, {1, 6});
  // a[None, [0,1]]
  check(a.index({None, List{0, 1}}), {1, 2, 4}, {8, 4, 1}, {0, 1, 2, 3, 4, 5, 6, 7});
  // a[::2, [0,3]]
  check(a.index({Slice(None, None, 2), List{0, 3}}), {2, 2}, {2, 1}, {0, 3, 8, 11});
  const Tensor y = arange_shaped({2, 3, 4});
  // y[:, [0,2]]
  check(y.index({Slice(), List{0, 2}}), {2, 2, 4}, {8, 4, 1},
        {0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23});
  // y[[0,1],:,[1,2]]
  check(y.index({List{0, 1}, Slice(), List{1, 2}}), {2, 3}, {3, 1}, {1, 5, 9, 14, 18, 22});
  // y[[0],:,[1,2]]
  check(y.index({List{0}, Slice(), List{1, 2}}), {2, 3}, {3, 1}, {1, 5, 9, 2, 6, 10});
  // y[1, :, [0,1]]
  check(y.index({1, Slice(), List{0, 1}}), {3, 2}, {2, 1}, {12, 13, 16, 17, 20, 21});
  // y[[0,1], 1]
  check(y.index({List{0, 1}, 1}), {2, 4}, {4, 1}, {4, 5, 6, 7, 16, 17, 18, 19});
  // y[[0,1], :, 0]
  check(y.index({List{0, 1}, Slice(), 0}), {2, 3}, {3, 1}, {0, 4, 8, 12, 16, 20});
  // A permuted source: the output follows the source's stride order (TensorIterator).
  const Tensor b = y.permute({2, 0, 1});  // (4,2,3):(1,12,4)
  // b[:, [0,1]]
  CHECK(b.index({Slice(), List{0, 1}}).strides() == Shape{1, 4, 8});
  // b[:, :, [0,1,2,0]]
  CHECK(b.index({Slice(), Slice(), List{0, 1, 2, 0}}).strides() == Shape{4, 16, 1});
  // b[[1]]
  check(b.index({List{1}}), {1, 2, 3}, {6, 3, 1}, {1, 5, 9, 13, 17, 21});
  // b[:, [1]]
  check(b.index({Slice(), List{1}}), {4, 1, 3}, {1, 4, 4},
        {12, 16, 20, 13, 17, 21, 14, 18, 22, 15, 19, 23});
  // b[:, :, [2]]
  check(b.index({Slice(), Slice(), List{2}}), {4, 2, 1}, {1, 4, 1}, {8, 20, 9, 21, 10, 22, 11, 23});
  // b[[0,1],:,[1,2]]
  check(b.index({List{0, 1}, Slice(), List{1, 2}}), {2, 2}, {2, 1}, {4, 16, 9, 21});
  // b[[0,1],[1,0]]
  check(b.index({List{0, 1}, List{1, 0}}), {2, 3}, {3, 1}, {12, 16, 20, 1, 5, 9});
  // b[:, [0,1],[1,2]]
  check(b.index({Slice(), List{0, 1}, List{1, 2}}), {4, 2}, {2, 1}, {4, 20, 5, 21, 6, 22, 7, 23});
  // b[[2],:,[0,1,2]]
  check(b.index({List{2}, Slice(), List{0, 1, 2}}), {3, 2}, {2, 1}, {2, 14, 6, 18, 10, 22});
  // b[[]]
  check(b.index({List{}}), {0, 2, 3}, {6, 3, 1}, {});
  // b[:, []]
  check(b.index({Slice(), List{}}), {4, 0, 3}, {1, 4, 0}, {});
  // A channels-last 4-d source keeps channels last.
  const Tensor cl = arange_shaped({1, 2, 3, 4}).permute({0, 2, 3, 1});  // (1,3,4,2):(24,4,1,12)
  // cl[[0]]
  CHECK(cl.index({List{0}}).strides() == Shape{24, 4, 1, 12});
  // cl[:, [0,2]]
  check(cl.index({Slice(), List{0, 2}}), {1, 2, 4, 2}, {16, 8, 1, 4},
        {0, 12, 1, 13, 2, 14, 3, 15, 8, 20, 9, 21, 10, 22, 11, 23});
  // cl[:, :, [1]]
  check(cl.index({Slice(), Slice(), List{1}}), {1, 3, 1, 2}, {6, 1, 3, 3}, {1, 13, 5, 17, 9, 21});
  // Stride-0 and empty sources.
  const Tensor e = a.slice(0, 0, 1).expand({3, 4});
  // e[:, [0,1]]
  check(e.index({Slice(), List{0, 1}}), {3, 2}, {2, 1}, {0, 1, 0, 1, 0, 1});
  // e[[0,1]]
  check(e.index({List{0, 1}}), {2, 4}, {4, 1}, {0, 1, 2, 3, 0, 1, 2, 3});
  const Tensor z = zeros({0, 3}).t();  // (3,0):(1,3)
  // z[[0,1]]
  check(z.index({List{0, 1}}), {2, 0}, {1, 1}, {});
  // [:, []]
  check(arange_shaped({2, 3}).t().index({Slice(), List{}}), {3, 0}, {1, 1}, {});
}

TEST_CASE("advanced indexing errors") {
  const Tensor a = arange_shaped({3, 4});
  CHECK(error_of([&] { a.index({List{3}}); }) ==
        "index(): index 3 is out of bounds for dimension 0 with size 3");
  CHECK_THROWS_AS(a.index({List{-4}}), Error);
  // The dimension in the message counts the lists, as PyTorch's index kernel does.
  CHECK(error_of([&] {
          a.index({Slice(), List{5}});
        }) == "index(): index 5 is out of bounds for dimension 0 with size 4");
  CHECK(error_of([&] {
          a.index({List{0, 1}, List{0, 7}});
        }) == "index(): index 7 is out of bounds for dimension 1 with size 4");
  // The kernel checks each index as it reads it, so nothing is checked when the result is empty:
  // a[[5], []] and a[:0, [9]] are fine (empty), as in torch.
  CHECK(a.index({List{5}, List{}}).sizes() == Shape{0});
  CHECK(a.index({Slice(None, 0), List{9}}).sizes() == Shape{0, 1});
  CHECK(error_of([&] {
          zeros({3, 0}).index({Slice(), List{0}});
        }) == "index(): index is out of bounds for dimension with size 0");
  CHECK(error_of([&] {
          a.index({List{0, 1}, List{0, 1, 2}});
        }) ==
        "index(): shape mismatch: indexing tensors could not be broadcast together with shapes "
        "[2], [3]");
}

namespace {
Tensor longs(const Values& v, IntList sizes) { return from_values(v, sizes, {DType::Int64}); }
}  // namespace

TEST_CASE("index_put_ writes values, broadcast, into the picked cells, in place (IX-09.put)") {
  const Tensor x = arange_shaped({3, 2});
  const void* before = x.data_ptr();
  Tensor a = x.clone();
  // a.index_put_((torch.tensor([0, 2]),), torch.tensor([[-1, -1], [-2, -2]]))
  CHECK(&a.index_put_({{0, 2}}, longs({-1, -1, -2, -2}, {2, 2})) == &a);
  check(a, {3, 2}, {2, 1}, {-1, -1, 2, 3, -2, -2});
  CHECK(x.data_ptr() == before);
  Tensor b = x.clone();  // ... torch.tensor([7, 8]): one row for both
  check(b.index_put_({{0, 2}}, longs({7, 8}, {2})), {3, 2}, {2, 1}, {7, 8, 2, 3, 7, 8});
  Tensor c = x.clone();  // ... torch.tensor(9): a 0-d value
  check(c.index_put_({{0, 2}}, longs({9}, {})), {3, 2}, {2, 1}, {9, 9, 2, 3, 9, 9});
  Tensor d = x.clone();  // ((torch.tensor([0, 2]), torch.tensor([1, 0])), torch.tensor([10, 20]))
  check(d.index_put_({{0, 2}, {1, 0}}, longs({10, 20}, {2})), {3, 2}, {2, 1},
        {0, 10, 2, 3, 20, 5});
  Tensor e = x.clone();  // ((torch.tensor([-1]), torch.tensor([1, 0])), ...): wraps, broadcasts
  check(e.index_put_({{-1}, {1, 0}}, longs({10, 20}, {2})), {3, 2}, {2, 1}, {0, 1, 2, 3, 20, 10});
  // y = torch.arange(24).view(2, 3, 4); y.index_put_((torch.tensor([0, 1]), torch.tensor([0, 2])),
  // torch.tensor([100, 200, 300, 400]))
  Tensor y = arange_shaped({2, 3, 4});
  y.index_put_({{0, 1}, {0, 2}}, longs({100, 200, 300, 400}, {4}));
  Values expected(24);
  for (int64_t i = 0; i < 24; ++i) expected[i] = static_cast<double>(i);
  for (int64_t k = 0; k < 4; ++k) expected[k] = expected[20 + k] = 100.0 * (k + 1);
  check(y, {2, 3, 4}, {12, 4, 1}, expected);
  // A transposed destination: the writes follow its strides.
  Tensor t = arange_shaped({2, 3}).t().contiguous().t();  // (2, 3) with strides (1, 2)
  t.index_put_({{1}}, longs({-1, -2, -3}, {3}));
  CHECK(t.to_vector() == Values{0, 1, 2, -1, -2, -3});
  // An empty list writes nothing.
  Tensor z = zeros({4});
  CHECK(z.index_put_({{}}, full({}, 1.0)).to_vector() == Values{0, 0, 0, 0});
}

TEST_CASE("index_put_ with a repeated index: the last write wins, or accumulate adds each") {
  const Tensor x = arange_shaped({3, 2});
  const Tensor v = longs({1, 1, 2, 2, 3, 3}, {3, 2});
  Tensor a = x.clone();  // a.index_put_((torch.tensor([0, 2, 0]),), v)
  check(a.index_put_({{0, 2, 0}}, v), {3, 2}, {2, 1}, {3, 3, 2, 3, 2, 2});
  Tensor b = x.clone();  // ... accumulate=True
  check(b.index_put_({{0, 2, 0}}, v, true), {3, 2}, {2, 1}, {4, 5, 2, 3, 6, 7});
  Tensor c = x.clone();  // c.index_put_((torch.tensor([0, 1, 1]),), v, accumulate=True)
  check(c.index_put_({{0, 1, 1}}, v, true), {3, 2}, {2, 1}, {1, 2, 7, 8, 4, 5});
  // torch.zeros(5).index_put_((torch.tensor([1, 1, 3]),), torch.tensor([1., 2., 3.]), True)
  Tensor f = zeros({5});
  check(f.index_put_({{1, 1, 3}}, from_values({1, 2, 3}, {3}), true), {5}, {1}, {0, 3, 0, 3, 0});
  // An expanded destination (PyTorch warns, and writes): every element is the one cell.
  Tensor e = zeros({1}).expand({3});
  e.index_put_({{1}}, from_values({1}, {1}));
  CHECK(e.to_vector() == Values{1, 1, 1});
}

TEST_CASE("indexing a uint8 tensor: a gathered copy, and accumulation that wraps") {
  // torch: u = torch.tensor([100, 200, 255], dtype=torch.uint8); u[[0, 2]] is [100, 255];
  // u.index_put_((torch.tensor([0, 0]),), torch.tensor([100, 100], dtype=torch.uint8), True)
  // gives [44, 200, 255] (300 wraps).
  Tensor u = from_values({100, 200, 255}, {3}, {DType::UInt8});
  const Tensor picked = u.index({std::vector<int64_t>{0, 2}});
  CHECK(picked.dtype() == DType::UInt8);
  CHECK(picked.to_vector() == Values{100, 255});
  CHECK(!picked.storage().is_same(u.storage()));
  u.index_put_({{0, 0}}, from_values({100, 100}, {2}, {DType::UInt8}), true);
  CHECK(u.to_vector() == Values{44, 200, 255});
  Tensor i = from_values({-128, 5}, {2}, {DType::Int8});
  i.index_put_({{0}}, from_values({-1}, {1}, {DType::Int8}), true);
  CHECK(i.to_vector() == Values{127, 5});
  CHECK(error_of([&] { i.index_put_({{0}}, from_values({1}, {1}, {DType::UInt8})); }) ==
        "index_put_(): Index put requires the source and destination dtypes match, got Char for "
        "the destination and Byte for the source.");
}

TEST_CASE("index_put_ errors, worded as PyTorch's") {
  Tensor x = arange_shaped({3, 2});
  CHECK(error_of([&] { x.index_put_({{0, 3}}, longs({1}, {})); }) ==
        "index_put_(): index 3 is out of bounds for dimension 0 with size 3");
  CHECK(error_of([&] { x.index_put_({{0, 1}, {0, 2}}, longs({1}, {})); }) ==
        "index_put_(): index 2 is out of bounds for dimension 1 with size 2");
  CHECK(error_of([&] { x.index_put_({{0, 1}}, longs({1, 2, 3}, {3})); }) ==
        "index_put_(): shape mismatch: value tensor of shape [3] cannot be broadcast to indexing "
        "result of shape [2, 2]");
  CHECK(error_of([&] { x.index_put_({{0, 1}}, from_values({1, 2}, {2})); }) ==
        "index_put_(): Index put requires the source and destination dtypes match, got Long for "
        "the destination and Float for the source.");
  CHECK(error_of([&] { x.index_put_({{0, 1}, {0, 1}, {0}}, longs({1}, {})); }) ==
        "index_put_(): too many indices for tensor of dimension 2 (got 3)");
  CHECK(error_of([&] { x.index_put_({{0, 1}, {0, 1, 1}}, longs({1}, {})); }) ==
        "index_put_(): shape mismatch: indexing tensors could not be broadcast together with "
        "shapes [2], [3]");
  CHECK(error_of([&] { x.index_put_({{0}}, x.select(0, 1)); }) ==
        "index_put_(): unsupported operation: some elements of the input tensor and the "
        "written-to tensor refer to a single memory location. Please clone() the tensor before "
        "performing the operation.");
  CHECK(error_of([&] { zeros({0}).index_put_({{1}}, full({}, 1.0)); }) ==
        "index_put_(): index is out of bounds for dimension with size 0");
  CHECK(error_of([&] { zeros({}).index_put_({{0}}, full({}, 1.0)); }) ==
        "index_put_(): too many indices for tensor of dimension 0 (got 1)");
  CHECK(error_of([&] { x.index_put_({}, longs({5}, {})); }) ==
        "index_put_(): strides() called on an undefined Tensor");
  // Nothing was written by a refused call.
  CHECK(x.to_vector() == Values{0, 1, 2, 3, 4, 5});
}

TEST_CASE("advanced indexing of a conjugated tensor gives the conjugated values, without the bit") {
  // torch.view_as_complex(tensor([[1., 2.], [3., 4.]])).conj()[[1]] is tensor([3.-4.j]), and its
  // is_conj() is False (PyTorch 1.13 and 2.6): index resolves the bit of its input.
  const Tensor z = view_as_complex(from_values({1, 2, 3, 4}, {2, 2}));
  const Tensor picked = z.conj().index({std::vector<int64_t>{1}});
  CHECK_FALSE(picked.is_conj());
  CHECK(view_as_real(picked).to_vector() == std::vector<double>{3, -4});
  // A basic index stays a view, and keeps the bit.
  const Tensor row = z.conj().index({1});
  CHECK(row.is_conj());
  CHECK(view_as_real(row.resolve_conj()).to_vector() == std::vector<double>{3, -4});
  // The source is untouched.
  CHECK(view_as_real(z).to_vector() == std::vector<double>{1, 2, 3, 4});
}
