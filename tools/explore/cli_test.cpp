// End to end: the built strided-explore program, its output and its exit status.
#include <doctest/doctest.h>

#include "test_path.h"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

struct Run {
  int status = -1;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The built strided-explore (tools/explore/CMakeLists.txt sets STRIDED_EXPLORE_PATH for ctest).
std::string explore_path() { return strided::testing::test_path("STRIDED_EXPLORE_PATH"); }

// Runs the program with arguments already quoted for the shell, and stdin from a string.
Run run(const std::string& args, const std::string& input = "") {
  const std::string dir = "explore_cli_test." + std::to_string(getpid());
  const std::string mk = "mkdir -p " + dir;
  REQUIRE(std::system(mk.c_str()) == 0);
  std::ofstream(dir + "/in", std::ios::binary) << input;
  const std::string cmd = "'" + explore_path() + "' " + args + " <" + dir + "/in >" + dir +
                          "/out 2>" + dir + "/err";
  const int raw = std::system(cmd.c_str());
  Run r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(dir + "/out");
  r.err = slurp(dir + "/err");
  const std::string rm = "rm -rf " + dir;
  (void)std::system(rm.c_str());
  return r;
}

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

}  // namespace

TEST_CASE("an expression prints every step") {
  const Run r = run("'arange(24).reshape(2,3,4).permute(2,0,1)[1:, ::2]'");
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK(has(r.out, "step 1: arange(24)\n"));
  CHECK(has(r.out, "step 3: arange(24).reshape(2,3,4).permute(2,0,1)\n"
                   "  shape           (4, 2, 3)\n"
                   "  strides         (1, 12, 4)    shape:stride (4,2,3):(1,12,4)\n"
                   "  storage offset  0\n"
                   "  dtype           int64, 24 elements\n"
                   "  contiguous      no  (non-overlapping and dense: yes)\n"
                   "  memory          view: shares the storage of step 2, nothing copied\n"));
  CHECK(has(r.out, "step 4: arange(24).reshape(2,3,4).permute(2,0,1)[1:, ::2]\n"
                   "  shape           (3, 1, 3)\n"
                   "  strides         (1, 24, 4)    shape:stride (3,1,3):(1,24,4)\n"
                   "  storage offset  1\n"));
  // The values as PyTorch prints them, and the picture of where they live.
  CHECK(has(r.out, "    tensor([[[ 1,  5,  9]],\n\n"
                   "            [[ 2,  6, 10]],\n\n"
                   "            [[ 3,  7, 11]]])\n"));
  CHECK(has(r.out, "    storage offset of each element:\n"
                   "      [[[ 1,  5,  9]],\n"));
  CHECK(has(r.out, "      used    .  *  *  *  .  *  *  *  .  *  *  *  .  .  .  .\n"));
  CHECK(has(r.out, "  memory          new tensor: a storage of 24 x int64 (192 bytes)\n"));
}

TEST_CASE("copies, broadcasts and dtypes are reported") {
  Run r = run("'arange(6).view(2, 3).t().contiguous()'");
  CHECK(r.status == 0);
  CHECK(has(r.out, "  memory          copy: a new storage of 6 x int64 (48 bytes)\n"));
  r = run("'arange(3, dtype=torch.float32).expand(4, 3)'");
  CHECK(r.status == 0);
  CHECK(has(r.out, "      used   4 4 4\n"));
  CHECK(has(r.out, "tensor([[0., 1., 2.],"));
  r = run("'ones(2, dtype=torch.int32).contiguous()'");
  CHECK(has(r.out, "  memory          the same tensor as step 1: nothing copied\n"));
  CHECK(has(r.out, "tensor([1, 1], dtype=torch.int32)"));
}

TEST_CASE("errors show a caret under the offending column and exit with 2") {
  Run r = run("'arange(24).reshape(2,3,4).permute(2,0)'");
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(has(r.err, "strided-explore: error at column 27: permute"));
  CHECK(has(r.err, "\n  arange(24).reshape(2,3,4).permute(2,0)\n"
                   "                            ^~~~~~~~~~~~\n"));
  r = run("'arange(6).view(2,'");
  CHECK(r.status == 2);
  CHECK(has(r.err, "error at column 18: expected a value, found end of input\n"
                   "  arange(6).view(2,\n"
                   "                   ^\n"));
  r = run("'arange(100000000)'");
  CHECK(r.status == 2);
  CHECK(has(r.err, "at most 16777216 (2^24) per tensor"));
}

TEST_CASE("usage") {
  Run r = run("--help");
  CHECK(r.status == 0);
  CHECK(has(r.out, "usage: strided-explore EXPRESSION [--svg FILE]"));
  CHECK(has(r.out, "--jsonl"));
  CHECK(run("").status == 2);
  CHECK(run("--frobnicate").status == 2);
  CHECK(run("'arange(2)' 'arange(3)'").status == 2);
  CHECK(run("--jsonl 'arange(2)'").status == 2);
  CHECK(has(run("--svg").err, "--svg needs a file name"));
  // An empty file name is a usage error, not a request for no picture.
  r = run("'arange(3)' --svg=");
  CHECK(r.status == 2);
  CHECK(has(r.err, "--svg needs a file name, got an empty one"));
  CHECK(run("'arange(3)' --svg ''").status == 2);
  // Two pictures asked for: the first was dropped silently.
  r = run("'arange(3)' --svg a.svg --svg b.svg");
  CHECK(r.status == 2);
  CHECK(has(r.err, "--svg given twice"));
}

TEST_CASE("an unreadable standard input is said plainly, not as an internal error") {
  const std::string err = "explore_cli_test_stdin." + std::to_string(getpid());
  for (const std::string& redirect : {std::string("<&-"), std::string("</")}) {
    const std::string cmd = "'" + explore_path() + "' --jsonl " + redirect + " >/dev/null 2>" + err;
    const int raw = std::system(cmd.c_str());
    const std::string message = slurp(err);
    INFO(redirect, ": ", message);
    CHECK((WIFEXITED(raw) ? WEXITSTATUS(raw) : -1) == 2);
    CHECK(has(message, "strided-explore: --jsonl: standard input cannot be read ("));
    CHECK_FALSE(has(message, "internal error"));
  }
  std::remove(err.c_str());
}

TEST_CASE("output that cannot be written is an error") {
  if (access("/dev/full", W_OK) != 0) return;  // Linux's always-full device
  const std::string err = "explore_cli_test_full." + std::to_string(getpid());
  const std::string in = err + ".in";
  std::ofstream(in) << "{\"broadcast_shapes\":[[1]]}\n";
  for (const std::string& args : {std::string("'arange(3)'"), std::string("--help"),
                                 "--jsonl <" + in}) {
    const std::string cmd = "'" + explore_path() + "' " + args + " >/dev/full 2>" + err;
    const int raw = std::system(cmd.c_str());
    INFO(args);
    CHECK((WIFEXITED(raw) && WEXITSTATUS(raw) == 1));
    CHECK(has(slurp(err), "strided-explore: cannot write to standard output"));
  }
  std::remove(err.c_str());
  std::remove(in.c_str());
}

TEST_CASE("--svg writes the picture") {
  const std::string path = "explore_cli_test_" + std::to_string(getpid()) + ".svg";
  Run r = run("'arange(6).view(2, 3)[:, 1]' --svg " + path);
  CHECK(r.status == 0);
  const std::string svg = slurp(path);
  std::remove(path.c_str());
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(has(svg, "<title>arange(6).view(2, 3)[:, 1]</title>"));
  CHECK(has(svg, "class=\"logical\" data-offset=\"4\""));
  // Too big to draw: a clear message, exit 2.
  r = run("'arange(1000)' --svg " + path);
  CHECK(r.status == 2);
  CHECK(has(r.err, "--svg: picture:"));
  std::remove(path.c_str());
  r = run("'arange(3)' --svg /nonexistent-dir/x.svg");
  CHECK(r.status == 1);
}

TEST_CASE("--jsonl answers line by line") {
  const Run r = run("--jsonl",
                    "{\"broadcast_shapes\":[[3,1],[1,4]]}\n"
                    "oops\n"
                    "{\"start\":{\"shape\":[2,2],\"dtype\":\"int64\"},\"ops\":[{\"op\":\"t\"}]}\n");
  CHECK(r.status == 0);
  CHECK(r.out ==
        "{\"result\":[3,4]}\n"
        "{\"error\":true,\"message\":\"bad input: not JSON: [json.exception.parse_error.101] "
        "parse error at line 1, column 1: syntax error while parsing value - invalid literal; "
        "last read: 'o'\"}\n"
        "{\"results\":[{\"shape\":[2,2],\"stride\":[1,2],\"storage_offset\":0,"
        "\"is_contiguous\":false,\"shares_storage\":true,\"shares_prev\":true,\"numel\":4,"
        "\"values\":[0,2,1,3]}]}\n");
}

TEST_CASE("--jsonl answers an expression with the report the program prints for it") {
  // Two lines: an expression, and one the program refuses (standard error, with its caret).
  const Run jsonl = run("--jsonl",
                        "{\"expression\":\"arange(6).view(2, 3).t()[1:]\"}\n"
                        "{\"expression\":\"arange(6).view(4)\"}\n");
  CHECK(jsonl.status == 0);
  const size_t newline = jsonl.out.find('\n');
  REQUIRE(newline != std::string::npos);
  const Run ok = run("'arange(6).view(2, 3).t()[1:]'");
  const Run refused = run("'arange(6).view(4)'");
  REQUIRE(ok.status == 0);
  REQUIRE(refused.status == 2);
  // The report as a JSON string: every byte the program printed, escaped.
  const auto quoted = [](const std::string& text) {
    std::string out;
    for (const char c : text) out += c == '\n' ? std::string("\\n") : std::string(1, c);
    return "\"report\":\"" + out + "\"";
  };
  CHECK(has(jsonl.out.substr(0, newline), quoted(ok.out)));
  CHECK(has(jsonl.out.substr(newline + 1), quoted(refused.err.substr(strlen("strided-explore: ")))));
}

TEST_CASE("a refused view says, after PyTorch's message, which dims cannot merge; exit 2") {
  const Run r = run("'arange(12).view(3, 4).t().view(12)'");
  CHECK(r.status == 2);  // as every refusal
  CHECK(r.out.empty());
  CHECK(has(r.err, "view size is not compatible with input tensor's size and stride"));
  CHECK(has(r.err, "\nwhy: new dim 0 (size 12) spans dims 0 and 1, which cannot merge: merging "
                   "needs stride[0] = size[1] × stride[1] = 3 × 4 = 12, and stride[0] is 1\n"));
  CHECK(has(r.err, "\ninstead: reshape(12) copies the 12 elements; or contiguous() first, then "
                   "view(12)\n"));
  // The explanation follows the message and its caret.
  CHECK(r.err.find("^") < r.err.find("why: "));
  const Run e = run("'zeros(2, 3).expand(4, 3)'");
  CHECK(e.status == 2);
  CHECK(has(e.err, "The expanded size of the tensor (4) must match the existing size (2)"));
  CHECK(has(e.err, "\nwhy: dim 0 has size 2, and expand grows only a dim of size 1"));
  CHECK(has(e.err, "\ninstead: repeat(2, 1) copies it into shape [4, 3]"));
  // A refusal no layout rule explains has no such lines.
  const Run p = run("'arange(6).permute(1)'");
  CHECK(p.status == 2);
  CHECK(!has(p.err, "why: "));
}

TEST_CASE("an assignment writes through, and a refused write exits with status 2") {
  const Run r = run("'arange(12).view(3, 4)[:, 0] = 5'");
  CHECK(r.status == 0);
  CHECK(has(r.out, "step 3: arange(12).view(3, 4)[:, 0] = 5\n"));
  CHECK(has(r.out, "in place: writes into step 2's elements"));
  CHECK(has(r.out, "step 1 after the write\n    tensor([ 5,  1,  2,  3,  5,  5,  6,  7,  5,  9, "
                   "10, 11])\n"));
  const Run bad = run("'ones(1, 3).expand(4, 3).add_(1)'");
  CHECK(bad.status == 2);
  CHECK(has(bad.err, "error at column 25: unsupported operation: more than one element of the "
                     "written-to tensor refers to a single memory location. Please clone() the "
                     "tensor before performing the operation.\n"));
}
