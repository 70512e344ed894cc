#include "expression.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>

namespace strided::explore {

std::string format_error(const std::string& source, Span span, const std::string& message) {
  // Show one line of the source: expressions are one line, but a pasted newline or tab must not
  // break the caret's alignment.
  std::string shown = source;
  for (char& c : shown)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  const size_t begin = std::min(span.begin, shown.size());
  const size_t end = std::max(begin + 1, std::min(span.end, shown.size() + 1));
  std::string out = "error at column " + std::to_string(begin + 1) + ": " + message + "\n";
  out += "  " + shown + "\n";
  out += "  " + std::string(begin, ' ') + "^" + std::string(end - begin - 1, '~') + "\n";
  return out;
}

std::string format_error(const std::string& source, const ExploreError& e) {
  std::string out = format_error(source, e.span(), e.what());
  if (e.why()) out += "why: " + e.why()->why + "\ninstead: " + e.why()->instead + "\n";
  return out;
}

namespace {

struct Token {
  enum class Kind { Ident, Int, Float, String, Punct, End };
  Kind kind = Kind::End;
  std::string text;  // identifier, punctuation or string contents
  uint64_t magnitude = 0;  // Int: the digits' value, without a sign
  double real = 0;
  Span span;
};

// PyTorch reads a Python int into int64_t with THPUtils_unpackLong (torch/csrc/utils/python_numbers.h),
// which raises "Overflow when unpacking long" past int64's range; an integer literal here is refused
// the same way, naming the literal.
ExploreError overflow(const std::string& literal, Span span) {
  return ExploreError("Overflow when unpacking long: " + literal + " does not fit in int64", span);
}

std::vector<Token> tokenize(const std::string& s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    Token t;
    t.span.begin = i;
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      t.kind = Token::Kind::Ident;
      t.text = s.substr(i, j - i);
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      bool real = false;
      // "2.5" and "2." are floats, as in Python; "2.t()" is not Python and lexes as 2 . t.
      const auto starts_name = [&](size_t k) {
        return k < s.size() && (std::isalpha(static_cast<unsigned char>(s[k])) || s[k] == '_' ||
                                s[k] == '.');
      };
      if (j < s.size() && s[j] == '.' && !starts_name(j + 1)) {
        real = true;
        ++j;
        while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      }
      if (j < s.size() && (s[j] == 'e' || s[j] == 'E')) {
        size_t k = j + 1;
        if (k < s.size() && (s[k] == '+' || s[k] == '-')) ++k;
        if (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) {
          real = true;
          j = k;
          while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
        }
      }
      const std::string text = s.substr(i, j - i);
      t.span.end = j;
      if (real) {
        t.kind = Token::Kind::Float;
        t.real = std::strtod(text.c_str(), nullptr);
      } else {
        // The magnitude, kept whole: a literal is an int64 only once its sign is known, and
        // -9223372036854775808 is one while 9223372036854775808 is not (literal() below).
        t.kind = Token::Kind::Int;
        errno = 0;
        t.magnitude = std::strtoull(text.c_str(), nullptr, 10);
        if (errno == ERANGE) throw overflow(text, t.span);
      }
      t.text = text;
      i = j;
    } else if (c == '\'' || c == '"') {
      const size_t close = s.find(c, i + 1);
      if (close == std::string::npos)
        throw ExploreError("unterminated string", Span{i, s.size()});
      t.kind = Token::Kind::String;
      t.text = s.substr(i + 1, close - i - 1);
      i = close + 1;
    } else if (s.compare(i, 3, "...") == 0) {
      t.kind = Token::Kind::Punct;
      t.text = "...";
      i += 3;
    } else if (std::string("()[],:=.-").find(c) != std::string::npos) {
      t.kind = Token::Kind::Punct;
      t.text = std::string(1, c);
      ++i;
    } else {
      const unsigned char u = static_cast<unsigned char>(c);
      std::string shown = u >= 0x20 && u < 0x7f ? "'" + std::string(1, c) + "'"
                                                : "byte " + std::to_string(u);
      throw ExploreError("unexpected character " + shown, Span{i, i + 1});
    }
    t.span.end = i;
    out.push_back(std::move(t));
  }
  Token end;
  end.kind = Token::Kind::End;
  end.span = Span{s.size(), s.size()};
  out.push_back(end);
  return out;
}

class Parser {
 public:
  explicit Parser(const std::string& source) : tokens_(tokenize(source)) {}

  Expression parse_expression(const std::string& source) {
    Expression e;
    e.source = source;
    chain(e.steps);
    if (is_punct("=")) assignment(e.steps);
    if (!at_end()) throw ExploreError("unexpected " + describe(peek()) + " after the expression",
                                      peek().span);
    return e;
  }

 private:
  const Token& peek(size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  bool at_end() const { return peek().kind == Token::Kind::End; }
  bool is_punct(const char* p, size_t ahead = 0) const {
    return peek(ahead).kind == Token::Kind::Punct && peek(ahead).text == p;
  }
  const Token& next() {
    const Token& t = peek();
    if (pos_ < tokens_.size() - 1) ++pos_;
    return t;
  }
  static std::string describe(const Token& t) {
    switch (t.kind) {
      case Token::Kind::End: return "end of input";
      case Token::Kind::Ident: return "name '" + t.text + "'";
      case Token::Kind::Int:
      case Token::Kind::Float: return "number " + t.text;
      case Token::Kind::String: return "string '" + t.text + "'";
      case Token::Kind::Punct: break;
    }
    return "'" + t.text + "'";
  }
  const Token& expect(const char* p, const std::string& what) {
    if (!is_punct(p))
      throw ExploreError("expected " + what + ", found " + describe(peek()),
                         peek().span);
    return next();
  }
  // An integer literal as an int64, once its sign is known: -2^63 is written -9223372036854775808.
  static int64_t literal(const Token& t, bool negative, Span span) {
    constexpr uint64_t kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    if (t.magnitude > kMax + (negative ? 1 : 0))
      throw overflow((negative ? "-" : "") + t.text, span);
    // Two's complement (C++20): 0 - 2^63 as uint64_t is 2^63, which converts to -2^63.
    return negative ? static_cast<int64_t>(uint64_t{0} - t.magnitude)
                    : static_cast<int64_t>(t.magnitude);
  }
  void enter(Span where) {
    if (++depth_ > kMaxNesting)
      throw ExploreError("nesting deeper than " + std::to_string(kMaxNesting) + " levels", where);
  }
  void leave() { --depth_; }

  // statement := chain '=' value, where the chain ends with an indexing: Python's x[...] = v
  // (a call or a property cannot be assigned to, as in Python).
  void assignment(std::vector<Step>& steps) {
    const Token& equals = next();
    Step& target = steps.back();
    if (steps.size() < 2 || target.kind != Step::Kind::Index)
      throw ExploreError("cannot assign to " +
                             std::string(target.kind == Step::Kind::Call ? "a function call"
                                                                         : "an attribute") +
                             ": only x[...] = value writes into a tensor",
                         Span{target.span.begin, equals.span.end});
    target.kind = Step::Kind::SetItem;
    target.assigned = value();
    target.span.end = target.assigned->span.end;
  }

  // chain := primary postfix*
  void chain(std::vector<Step>& steps) {
    primary(steps);
    postfix(steps);
  }

  // postfix := '.' name ['(' arguments ')'] | '[' index ']'
  void postfix(std::vector<Step>& steps) {
    for (;;) {
      if (is_punct(".")) {
        next();
        const Token& name = peek();
        if (name.kind != Token::Kind::Ident)
          throw ExploreError("expected a method name after '.', found " + describe(name),
                             name.span);
        next();
        Step s;
        s.name = name.text;
        s.name_span = name.span;
        s.span.begin = name.span.begin;
        if (is_punct("(")) {
          s.kind = Step::Kind::Call;
          s.arguments = arguments();
        } else {
          s.kind = Step::Kind::Property;
        }
        s.span.end = tokens_[pos_ - 1].span.end;
        steps.push_back(std::move(s));
      } else if (is_punct("[")) {
        steps.push_back(index());
      } else {
        return;
      }
    }
  }

  // primary := '(' chain ')' | ['torch' '.'] name '(' arguments ')'
  void primary(std::vector<Step>& steps) {
    if (is_punct("(")) {
      const Span open = next().span;
      enter(open);
      chain(steps);
      expect(")", "')' to close the '(' at column " + std::to_string(open.begin + 1));
      leave();
      return;
    }
    const Token& first = peek();
    if (first.kind != Token::Kind::Ident)
      throw ExploreError("an expression starts with a factory such as arange(6), found " +
                             describe(first),
                         first.span);
    next();
    Step s;
    s.kind = Step::Kind::Call;
    s.span.begin = first.span.begin;
    s.name = first.text;
    s.name_span = first.span;
    if (first.text == "torch" && is_punct(".") && peek(1).kind == Token::Kind::Ident) {
      next();
      const Token& name = next();
      s.name = name.text;
      s.name_span = Span{first.span.begin, name.span.end};
      s.torch = true;
    }
    if (!is_punct("("))
      throw ExploreError("expected '(' to call " + s.name + ", found " + describe(peek()),
                         peek().span);
    s.arguments = arguments();
    s.span.end = tokens_[pos_ - 1].span.end;
    steps.push_back(std::move(s));
  }

  // arguments := '(' [argument (',' argument)* [',']] ')'
  std::vector<Argument> arguments() {
    const Span open = next().span;  // '('
    enter(open);
    std::vector<Argument> out;
    bool keywords = false;
    while (!is_punct(")")) {
      Argument a;
      a.span.begin = peek().span.begin;
      if (peek().kind == Token::Kind::Ident && is_punct("=", 1)) {
        a.keyword = next().text;
        next();  // '='
        keywords = true;
        for (const Argument& b : out)
          if (b.keyword == a.keyword)
            throw ExploreError("keyword argument " + a.keyword + " repeated",
                               Span{a.span.begin, a.span.begin + a.keyword.size()});
      } else if (keywords) {
        throw ExploreError("positional argument follows keyword argument", peek().span);
      }
      a.value = value();
      a.span.end = a.value.span.end;
      out.push_back(std::move(a));
      if (is_punct(",")) {
        next();
        continue;
      }
      if (!is_punct(")"))
        throw ExploreError("expected ',' or ')' in the argument list, found " + describe(peek()),
                           peek().span);
    }
    next();  // ')'
    leave();
    return out;
  }

  Value value() {
    Value v;
    const Token& t = peek();
    v.span = t.span;
    if (is_punct("-")) {
      next();
      const Token& n = peek();
      if (n.kind == Token::Kind::Int) {
        next();
        v.kind = Value::Kind::Int;
        v.integer = literal(n, true, Span{t.span.begin, n.span.end});
      } else if (n.kind == Token::Kind::Float) {
        next();
        v.kind = Value::Kind::Float;
        v.real = -n.real;
      } else {
        throw ExploreError("expected a number after '-', found " + describe(n), n.span);
      }
      v.span.end = n.span.end;
      return v;
    }
    switch (t.kind) {
      case Token::Kind::Int:
        next();
        v.kind = Value::Kind::Int;
        v.integer = literal(t, false, t.span);
        return v;
      case Token::Kind::Float:
        next();
        v.kind = Value::Kind::Float;
        v.real = t.real;
        return v;
      case Token::Kind::String:
        next();
        v.kind = Value::Kind::String;
        v.text = t.text;
        return v;
      case Token::Kind::Ident: {
        const size_t start = pos_;
        next();
        if (t.text == "None") {
          v.kind = Value::Kind::None;
        } else if (t.text == "True" || t.text == "False") {
          v.kind = Value::Kind::Bool;
          v.boolean = t.text == "True";
        } else {
          v.kind = Value::Kind::Name;
          v.text = t.text;
          while (is_punct(".") && peek(1).kind == Token::Kind::Ident) {  // torch.float32
            next();
            v.text += "." + next().text;
          }
          if (is_punct("(")) {  // a call: a tensor expression, as z in torch.view_as_real(z)
            pos_ = start;
            v.kind = Value::Kind::Tensor;
            v.text.clear();
            chain(v.steps);
          }
          v.span.end = tokens_[pos_ - 1].span.end;
        }
        return v;
      }
      case Token::Kind::Punct:
        if (t.text == "(" || t.text == "[") {
          Value s = sequence();
          if (s.kind == Value::Kind::Tensor && (is_punct(".") || is_punct("["))) {
            postfix(s.steps);  // (arange(6)).t()
            s.span.end = tokens_[pos_ - 1].span.end;
          }
          return s;
        }
        break;
      case Token::Kind::End: break;
    }
    throw ExploreError("expected a value, found " + describe(t), t.span);
  }

  // (2, 3), [2, 3], (2,) and () are sequences; (2) is the number 2, as in Python.
  Value sequence() {
    const Token& open = next();
    const bool paren = open.text == "(";
    const char* close = paren ? ")" : "]";
    enter(open.span);
    Value v;
    v.kind = Value::Kind::Sequence;
    v.span = open.span;
    v.list = !paren;
    bool comma = false;
    while (!is_punct(close)) {
      v.items.push_back(value());
      if (is_punct(",")) {
        next();
        comma = true;
        continue;
      }
      if (!is_punct(close))
        throw ExploreError(std::string("expected ',' or '") + close + "', found " +
                               describe(peek()),
                           peek().span);
    }
    v.span.end = next().span.end;
    leave();
    if (paren && v.items.size() == 1 && !comma) {
      Value inner = v.items[0];
      inner.span = v.span;
      return inner;
    }
    return v;
  }

  std::optional<int64_t> maybe_int() {
    if (peek().kind == Token::Kind::Int) {
      const Token& t = next();
      return literal(t, false, t.span);
    }
    if (is_punct("-") && peek(1).kind == Token::Kind::Int) {
      const size_t minus = next().span.begin;
      const Token& t = next();
      return literal(t, true, Span{minus, t.span.end});
    }
    if (peek().kind == Token::Kind::Float)
      throw ExploreError("indices must be integers, found " + describe(peek()), peek().span);
    return std::nullopt;
  }

  // index := '[' item (',' item)* [','] ']'
  Step index() {
    Step s;
    s.kind = Step::Kind::Index;
    const Span open = next().span;
    enter(open);
    s.span.begin = open.begin;
    s.name_span = open;
    if (is_punct("]")) throw ExploreError("empty index: write x[0], x[1:], x[None] ...", open);
    while (!is_punct("]")) {
      s.index.push_back(index_item());
      if (is_punct(",")) {
        next();
        continue;
      }
      if (!is_punct("]"))
        throw ExploreError("expected ',' or ']' in the index, found " + describe(peek()),
                           peek().span);
    }
    s.span.end = next().span.end;
    s.name_span.end = s.span.end;
    leave();
    return s;
  }

  IndexItem index_item() {
    IndexItem item;
    item.span = peek().span;
    if (is_punct("...")) {
      next();
      item.kind = IndexItem::Kind::Ellipsis;
      return item;
    }
    if (peek().kind == Token::Kind::Ident && peek().text == "None") {
      next();
      item.kind = IndexItem::Kind::None;
      return item;
    }
    if (is_punct("[")) {
      const Span open = next().span;
      item.kind = IndexItem::Kind::List;
      while (!is_punct("]")) {
        const std::optional<int64_t> v = maybe_int();
        if (!v) throw ExploreError("a list index holds integers, found " + describe(peek()),
                                   peek().span);
        item.list.push_back(*v);
        if (is_punct(",")) {
          next();
          continue;
        }
        if (!is_punct("]"))
          throw ExploreError("expected ',' or ']' in the index list, found " + describe(peek()),
                             peek().span);
      }
      item.span = Span{open.begin, next().span.end};
      return item;
    }
    // start[:stop[:step]] or an integer
    item.start = maybe_int();
    if (!is_punct(":")) {
      if (!item.start)
        throw ExploreError("expected an index (an integer, a slice, None, ... or a list), found " +
                               describe(peek()),
                           peek().span);
      item.kind = IndexItem::Kind::Int;
      item.integer = *item.start;
      item.start.reset();
      item.span.end = tokens_[pos_ - 1].span.end;
      return item;
    }
    item.kind = IndexItem::Kind::Slice;
    next();  // ':'
    item.stop = maybe_int();
    if (is_punct(":")) {
      next();
      item.step = maybe_int();
    }
    item.span.end = tokens_[pos_ - 1].span.end;
    return item;
  }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

Expression parse(const std::string& source) {
  if (source.size() > kMaxExpressionLength)
    throw ExploreError("the expression is " + std::to_string(source.size()) +
                           " characters long; the explorer reads at most " +
                           std::to_string(kMaxExpressionLength),
                       Span{kMaxExpressionLength, source.size()});
  Parser p(source);
  return p.parse_expression(source);
}

}  // namespace strided::explore
