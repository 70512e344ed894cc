// strided-explore: try layouts from the command line, or drive the library in bulk with --jsonl.
// Exit status: 0 success, 1 a file (or standard output) could not be written, 2 a bad expression
// or bad usage.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "budget.h"
#include "evaluate.h"
#include "expression.h"
#include "jsonl.h"
#include "report.h"
#include "strided/pictures/picture.h"

namespace {

const char* const kHelp = R"(usage: strided-explore EXPRESSION [--svg FILE]
       strided-explore --jsonl
       strided-explore --help

Shows how a tensor lives in memory, step by step, with PyTorch's semantics.

EXPRESSION is a PyTorch-like chain: a factory, then methods and Python indexing, e.g.
  strided-explore 'arange(24).reshape(2,3,4).permute(2,0,1)[1:, ::2]'
For every step it prints the shape, the strides (and the shape:stride notation, e.g.
(4,2,3):(1,12,4), rows first as in PyTorch), the storage offset, the dtype, contiguity, whether
the step made a view or a copy, the values as PyTorch prints them, and a text picture of the
storage offset of each element and of the storage cells the tensor uses.

  --svg FILE   also write an SVG picture of the last step over its storage (FILE not empty)

Numbers: an integer is an int64, exactly, from -9223372036854775808 to 9223372036854775807
(past that: "Overflow when unpacking long", as PyTorch); a number with '.' or an exponent is a
double. Arguments bind as PyTorch's: by position or by keyword (view(size=(2, 3))), and dtype=
(and seed=) only by keyword.

Dtypes: bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64, complex64,
complex128, and torch's aliases short, int, long, half, float, double, cfloat, cdouble.

Factories (torch.arange and arange are the same; dtype=torch.float32 or dtype='float32'):
  arange(end) | arange(start, end[, step])      int64, or float32 when a number is a float
                                                (arange(5.0)), unless dtype= says otherwise
  zeros(*size) ones(*size) empty(*size)         float32; empty is zero-filled here
  empty_strided(size, stride)                   zero-filled here, so runs are reproducible
  rand(*size, seed=0) randn(*size, seed=0)      a seeded generator, float32
  tensor(data)                                  nested lists of numbers or True/False
Methods (as torch.Tensor's; sizes as view(2, 3) or view((2, 3))):
  view reshape permute expand broadcast_to flip transpose t unsqueeze squeeze flatten
  unflatten unfold diagonal narrow select movedim as_strided contiguous clone to
  swapaxes swapdims moveaxis detach; view(torch.int32) reads the same bytes as another dtype
  conj resolve_conj conj_physical adjoint (complex64, complex128: dtype=torch.complex64)
  With several outputs, one picked by an integer index: split(2)[1], split((1, 3), 1)[0],
  split_with_sizes split_sizes, chunk(3)[2], unbind(0)[1], tensor_split(3)[0],
  tensor_split([1, 4])[1], hsplit vsplit dsplit (sections or a list of indices)
Properties: .mT .T .H .mH .real .imag
Functions, as torch spells them: torch.f(x, ...) for each method or property above that the
  torch module has, x first (by position or input=), the rest bound as the method's, e.g.
  torch.transpose(x, 0, 1), torch.permute(x, (2, 0, 1)), torch.split(x, 2)[1], torch.real(z);
  and torch.view_as_real(z), torch.view_as_complex(x), torch.atleast_1d(x) (2d, 3d). x is an
  expression: torch.view_as_real(zeros(2, 3, dtype=torch.complex64).t())
Indexing: integers, slices start:stop:step (step > 0), None, one ..., lists of integers
  (advanced indexing: a copy), e.g. x[0], x[1:, ::2], x[..., None], x[[0, 2]]
In place (each writes into the tensor it is called on and returns it, self; the step shows the
  values after the write and the steps sharing its storage, which see it):
  add_(other, alpha=1) mul_(other) fill_(value) zero_() copy_(src)
  index_put_((tensor([0, 2]),), values, accumulate=False)   other: a number or a tensor
  and, ending an expression, x[...] = value: arange(12).view(3, 4)[:, 0] = 5, x[[0, 2]] = v
  (lists alone); PyTorch 2.6's refusals, e.g. a write through a stride-0 dim of expand

Errors (syntax, unknown names, and everything PyTorch would refuse) are reported with the
column and a caret under the offending text, and exit with status 2; where a layout rule
refuses (view, expand, broadcast_to), two lines follow, from the library's layout algebra:
"why:" names the dims and the numbers of the rule that failed, "instead:" what works; output that cannot be
written (a full disk) exits with status 1. Inputs are untrusted: an expression is at most 4096
characters, a --jsonl line at most 1048576 bytes, nested at most 64 deep.

)";

const char* const kHelpJsonl = R"(
--jsonl reads one JSON request per line on standard input and writes one JSON answer per line,
in order, flushing each:
  {"start":{"shape":[2,3,4],"dtype":"float32"},"ops":[{"op":"permute","dims":[2,0,1]}]}
      The start tensor is arange(numel) of the dtype (float32 when absent), reshaped,
      contiguous; with "values":[...] it holds those instead, row-major, as
      torch.tensor(values, dtype=...) takes them (numbers, true, false, "NaN", "Infinity",
      "-Infinity"). Ops and their fields (a null field counts as omitted;
      a field a request, a start or an op does not have is bad input, as PyTorch refuses
      an unknown keyword):
        permute{dims} transpose{dim0,dim1} slice{dim,start,stop,step} select{dim,index}
        diagonal{offset,dim1,dim2} expand{shape} broadcast_to{shape} unsqueeze{dim}
        squeeze{dim} (a dim or a list; no dim: all) view{shape} reshape{shape} flatten{start_dim,end_dim}
        contiguous{} t{} narrow{dim,start,length} as_strided{size,stride,storage_offset}
        (no offset: keep the current one) unfold{dimension,size,step}
        and also movedim{source,destination} unflatten{dim,sizes} mT{} clone{} flip{dims}
        view_dtype{dtype} to{dtype} swapaxes{axis0,axis1} swapdims{dim0,dim1}
        moveaxis{source,destination} atleast_1d{} atleast_2d{} atleast_3d{} detach{} alias{}
        view_as_real{} view_as_complex{} real{} imag{} conj{} resolve_conj{}
        conj_physical{} H{} mH{} adjoint{} (a complex start: arange as the real parts, 0 as
        the imaginary parts; complex values are answered as [re, im] pairs)
        With several outputs, "index" names the one the chain continues with:
        split{split_size (an int or a list),dim,index} split_with_sizes{sizes,dim,index}
        chunk{chunks,dim,index} unbind{dim,index} tensor_split{sections or indices,dim,index}
        hsplit{sections or indices,index} (and vsplit, dsplit)
        In place, each answering the tensor it wrote into, with "in_place":true and
        "start_values" (the start tensor after the write): add_{other,alpha} mul_{other}
        fill_{value} zero_{} copy_{src} index_put_{indices (a list per dim),values,accumulate},
        where other, src and values are a number (not src) or a chain: {"start":...,"ops":[...]}
        a tensor of its own, or {"ops":[...]} the ops applied to this chain's start tensor
      Answer: {"results":[...]} with one entry per op applied:
        {"shape","stride","storage_offset","is_contiguous","shares_storage" (with the start
         tensor),"shares_prev" (with the previous step's tensor),"numel","values" (row-major,
         only when numel <= 256; integers, booleans or numbers by dtype, and NaN and the
         infinities as the strings "NaN", "Infinity" and "-Infinity")}
      or {"error":true,"message":...}, after which the chain stops; a refusal by a layout
      rule (view, expand, broadcast_to, and broadcasting in broadcast_shapes and binary) adds
      "explanation":{"rule","dims","why","instead"}: the rule, the dims it failed on, why in
      words with the numbers, and what works instead.
  {"expression":"arange(24).view(4, 6).mT"}
      What strided-explore EXPRESSION prints, as fields: {"results":[...],"report":...} with
      one entry per step the report shows, a chain result's fields (the first step as the
      start tensor, "shares_prev" false) and "text" (the step as the report's heading words
      it), "dtype", "memory" (new, self, view, copy or in_place), "repr" (the values as
      PyTorch prints them) and "values" where the report printed the values; past the print
      budget, an error entry in the report's words ends them. "report" is the text report.
      An expression that fails: {"error":true,"message","explanation" (as a chain's),
      "column","report" (the message, the expression and its caret, as on standard error)}.
  {"broadcast_shapes":[[3,1],[1,4]]}  ->  {"result":[3,4]} or an error
  {"unary":"neg","x":<chain>}       unary: neg, abs, exp, sqrt, add_scalar (x + 1), clone,
      empty_like, contiguous, and sum (all elements, or "dim":d), int64 for integers and bool
  {"binary":"mul","x":<chain>,"y":<chain>}   binary: add, sub, mul, div, with broadcasting
      where a chain is {"start":...,"ops":[...]}; the answer is the result's
      {"shape","stride","storage_offset","dtype","is_contiguous","numel","values"}, its strides
      by PyTorch's output-layout rule and its dtype by PyTorch's type promotion
  {"matmul":{"a_shape":[3,4,1,2],"b_shape":[1,2,3],"dtype":"float32"}}
      operands are arange(numel) reshaped; batched dims broadcast as in torch.matmul
  {"grad":{"start":{"shape":[2,3],"dtype":"float64"},"ops":[{"op":"exp"}]}}
      A gradient: the leaf x is the start tensor with requires_grad, y is x after the ops, and
      backward runs from (y * w).sum() with w = arange(1, y.numel() + 1) shaped like y. The ops
      are a chain's (but for split_with_sizes, tensor_split, h/v/dsplit, view_dtype, to,
      alias, atleast_*, copy_ and index_put_; add_ and mul_ take a number as other; an in-place
      op is refused in PyTorch's words on the leaf, on a view of it, on an output of split,
      chunk or unbind, and at backward when it wrote a tensor a node saved), and sum{dim,keepdim} mean{dim,keepdim} (no dim: all) exp{} log{} pow{exponent}
      mul_self{} (y * y); at most 64 of them. Answer: x.grad as {"shape","stride","values"}
      (values as in a chain's answer), or {"error":true,"message":...} where PyTorch raises.
  Integers in requests are int64, exactly. A line that is not a request (not JSON, JSON and
  more, a NUL byte) is answered {"error":true,"message":"bad input: ..."} and the program goes
  on with the next line.
)";

// Standard output is buffered: a full disk or a closed pipe shows only when it is flushed, and a
// run whose output was lost must not end with status 0.
int flushed(int status) {
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "strided-explore: cannot write to standard output: " << std::strerror(errno)
              << "\n";
    return 1;
  }
  return status;
}

int usage_error(const std::string& message) {
  std::cerr << "strided-explore: " << message << "\n(try strided-explore --help)\n";
  return 2;
}

int run_expression(const std::string& source, const std::string& svg_path) {
  using namespace strided;
  using namespace strided::explore;
  std::vector<StepResult> steps;
  Meter meter;
  try {
    steps = evaluate(parse(source), meter);
  } catch (const ExploreError& e) {
    std::cerr << "strided-explore: " << format_error(source, e);
    return 2;
  }
  std::cout << report(steps, meter);
  if (const int status = flushed(0); status != 0 || svg_path.empty()) return status;
  std::string svg;
  try {
    // The last step over its storage: the storage row shows which cells it touches (and how
    // often), which is what a view's base would add.
    const StepResult& last = steps.back();
    PictureOptions o;
    o.title = source;
    svg = tensor_svg(last.tensor, last.text, o);
  } catch (const Error& e) {
    std::cerr << "strided-explore: --svg: " << e.what() << "\n";
    return 2;
  }
  std::ofstream out(svg_path, std::ios::binary);
  out << svg;
  out.close();
  if (!out) {
    std::cerr << "strided-explore: --svg: cannot write " << svg_path << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    bool jsonl = false;
    std::string svg_path, expression;
    bool have_expression = false;
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& a = args[i];
      if (a == "--help" || a == "-h") {
        std::cout << kHelp << strided::explore::budgets_help() << kHelpJsonl;
        return flushed(0);
      } else if (a == "--jsonl") {
        jsonl = true;
      } else if (a == "--svg" || a.rfind("--svg=", 0) == 0) {
        if (a == "--svg" && i + 1 >= args.size()) return usage_error("--svg needs a file name");
        if (!svg_path.empty()) return usage_error("--svg given twice: one picture at a time");
        svg_path = a == "--svg" ? args[++i] : a.substr(6);
        if (svg_path.empty()) return usage_error("--svg needs a file name, got an empty one");
      } else if (a.size() > 1 && a[0] == '-' && a[1] == '-') {
        return usage_error("unknown option " + a);
      } else if (!have_expression) {
        expression = a;
        have_expression = true;
      } else {
        return usage_error("one expression at a time (quote it: 'arange(6).view(2, 3)')");
      }
    }
    if (jsonl) {
      if (have_expression || !svg_path.empty())
        return usage_error("--jsonl reads requests from standard input and takes no other "
                           "arguments");
      std::ios::sync_with_stdio(false);
      try {
        strided::explore::serve(std::cin, std::cout);
      } catch (const std::exception& e) {
        // A closed or unreadable standard input (--jsonl <&-, or a directory): the stream's own
        // words end with the system's reason, which is what the reader needs.
        const std::string what = e.what();
        const size_t colon = what.rfind(": ");
        std::cerr << "strided-explore: --jsonl: standard input cannot be read ("
                  << (colon == std::string::npos ? what : what.substr(colon + 2)) << ")\n";
        return 2;
      }
      return flushed(0);
    }
    if (!have_expression) return usage_error("no expression given");
    return run_expression(expression, svg_path);
  } catch (const std::exception& e) {
    // Every expected failure is handled above; this is the last guard against a crash.
    std::cerr << "strided-explore: internal error: " << e.what() << "\n";
    return 2;
  }
}
