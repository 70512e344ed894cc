// The catalogue's one assertion: a statement must throw strided::Error (not another exception, and
// not nothing), and its message must contain every given piece: the operation's name and the
// offending values, and where PyTorch 1.13 raises the same error, a piece of PyTorch's own wording.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "strided/core/error_of.h"

#define CHECK_ERROR(statement, ...)                                                 \
  do {                                                                              \
    const std::string message_ = ::strided::error_of([&] { (void)(statement); });   \
    INFO("statement: " #statement);                                                 \
    INFO("message:   " << message_);                                                \
    CHECK_MESSAGE(!message_.empty(), "no strided::Error was thrown");               \
    for (const std::string piece_ : {__VA_ARGS__})                                  \
      CHECK_MESSAGE(message_.find(piece_) != std::string::npos, "missing: " << piece_); \
  } while (0)
