// The fuzzer's reference: a tensor as a plain row-major list of storage addresses, one per logical
// element, with no strides at all. Each view op is applied to this list by its meaning alone ("the
// element at index i of the result is the element at index f(i) of the input"), the way the
// tinygrad view tests compare every op against a plain array. The library computes the same
// results through its stride algebra; the fuzzer compares the two element by element.
//
// Every op also says, by PyTorch 1.13's rules restated here from the documentation and
// aten/src/ATen/native/TensorShape.cpp, whether its arguments are valid: the library must raise
// exactly when the reference refuses.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace strided::fuzz {

using Ints = std::vector<int64_t>;

struct Reference {
  Ints sizes;
  Ints addresses;  // row-major over sizes; addresses[k] is an element offset into the storage
  bool too_big = false;  // valid, but more than kMaxReferenceElements: sizes only, no addresses
};

// Past this many elements the reference is not built (a view of 2^40 elements allocates nothing,
// but its list of addresses would); the fuzzer then stops the chain.
inline constexpr int64_t kMaxReferenceElements = int64_t{1} << 12;

// The product of sizes, or nullopt when a size is negative or the product passes
// kMaxReferenceElements (a zero size makes it 0 whatever comes after).
std::optional<int64_t> small_numel(const Ints& sizes);

// c10's safe_compute_numel: does the product of the sizes overflow int64, counting an overflow
// that a later 0 would cancel? (Every PyTorch view refuses such sizes.)
bool numel_overflows(const Ints& sizes);

// The address formula, for the start tensor and for as_strided: offset + sum_k i_k * strides[k]
// over every index, row-major. Sizes must pass small_numel.
Reference from_layout(const Ints& sizes, const Ints& strides, int64_t offset);

// as_strided over a storage of storage_bytes bytes (TensorShape.cpp, setStrided and
// checkInBoundsForStorage): sizes and strides of one length, none negative, an offset >= 0, and
// the farthest element inside the storage (not checked when there are no elements).
std::optional<Reference> as_strided(const Ints& sizes, const Ints& strides, int64_t offset,
                                    int64_t item, int64_t storage_bytes);

// Each op: the result, or nullopt when PyTorch raises for these arguments. An empty optional for
// view-like ops never depends on the strides: the reference has none.
std::optional<Reference> select(const Reference& r, int64_t dim, int64_t index);
std::optional<Reference> slice(const Reference& r, int64_t dim, std::optional<int64_t> start,
                               std::optional<int64_t> stop, int64_t step);
std::optional<Reference> narrow(const Reference& r, int64_t dim, int64_t start, int64_t length);
std::optional<Reference> permute(const Reference& r, const Ints& dims);
std::optional<Reference> transpose(const Reference& r, int64_t dim0, int64_t dim1);
std::optional<Reference> t(const Reference& r);
std::optional<Reference> mT(const Reference& r);
std::optional<Reference> movedim(const Reference& r, int64_t source, int64_t destination);
std::optional<Reference> diagonal(const Reference& r, int64_t offset, int64_t dim1, int64_t dim2);
std::optional<Reference> expand(const Reference& r, const Ints& sizes);
std::optional<Reference> unsqueeze(const Reference& r, int64_t dim);
std::optional<Reference> squeeze(const Reference& r, std::optional<int64_t> dim);
// view and reshape: the same elements in the same row-major order under a new shape (one -1 may
// be inferred). Whether view succeeds also depends on the strides, which the reference has not;
// the fuzzer checks that a refused view is one reshape copies.
std::optional<Reference> reshape(const Reference& r, const Ints& shape);
std::optional<Reference> flatten(const Reference& r, int64_t start_dim, int64_t end_dim);
std::optional<Reference> unflatten(const Reference& r, int64_t dim, const Ints& sizes);
std::optional<Reference> unfold(const Reference& r, int64_t dim, int64_t size, int64_t step);

}  // namespace strided::fuzz
