// The explorer's side of the catalogue: running an expression as the program does, the span its
// error marks, and the message of a --jsonl error answer. Shared by parts 7, 8 and 9.
#pragma once

#include <doctest/doctest.h>

#include <initializer_list>
#include <string>

#include "evaluate.h"
#include "expression.h"
#include "jsonl.h"

namespace bad_input {

// Parses and evaluates, as the program does.
inline void run(const std::string& source) {
  strided::explore::evaluate(strided::explore::parse(source));
}

// The span an ExploreError points at, as the text it covers.
inline std::string marked(const std::string& source) {
  try {
    run(source);
  } catch (const strided::explore::ExploreError& e) {
    const strided::explore::Span s = e.span();
    REQUIRE(s.begin <= s.end);
    REQUIRE(s.end <= source.size());
    return source.substr(s.begin, s.end - s.begin);
  }
  return "(no error)";
}

// The message of an error answer (top-level, or the last entry of a chain's results).
inline std::string error_message(const std::string& line) {
  const std::string answer = strided::explore::answer_line(line);
  INFO("answer: " << answer);
  const strided::explore::Json j = strided::explore::Json::parse(answer);  // always one object
  const strided::explore::Json& e = j.contains("results") ? j["results"].back() : j;
  REQUIRE(e.value("error", false));
  return e["message"].get<std::string>();
}

inline void check_contains(const std::string& message, std::initializer_list<const char*> pieces) {
  INFO("message: " << message);
  for (const char* p : pieces) CHECK_MESSAGE(message.find(p) != std::string::npos, p);
}

}  // namespace bad_input
