#include "book/plot.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "book/provenance.h"

namespace book {

namespace {
std::string& emit_dir_storage() {
  static std::string dir;
  return dir;
}
}  // namespace

const std::string& emit_dir() { return emit_dir_storage(); }

void gnuplot_figure(Check& c, const std::string& name, const std::string& script,
                    const std::string& data, const std::string& caption, const std::string& vars) {
  if (emit_dir().empty()) return;
  c.figure(name, gnuplot(script, name, data, vars), caption);
}
void set_emit_dir(std::string dir) { emit_dir_storage() = std::move(dir); }

std::string plain_svg(std::string svg) {
  const size_t defs = svg.find("<defs>"), end = svg.find("</defs>");
  if (defs != std::string::npos && end != std::string::npos && end > defs)
    svg.erase(defs, end + std::string("</defs>").size() - defs);
  svg = std::regex_replace(svg, std::regex("<use [^>]*/>"), "");
  static const std::regex colored("<([a-z]+)([^>]*) color=\"([^\"]*)\"([^>]*)>");
  std::string out;
  size_t last = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), colored); it != std::sregex_iterator();
       ++it) {
    const std::smatch& m = *it;
    out += svg.substr(last, static_cast<size_t>(m.position()) - last);
    std::string tag = "<" + m[1].str() + m[2].str() + m[4].str() + ">";
    for (size_t at; (at = tag.find("currentColor")) != std::string::npos;)
      tag.replace(at, std::string("currentColor").size(), m[3].str());
    out += tag;
    last = static_cast<size_t>(m.position() + m.length());
  }
  return out + svg.substr(last);
}

std::string gnuplot(const std::string& script, const std::string& name, const std::string& data,
                    const std::string& vars) {
  // vars go inside the shell's double quotes: the book's own words, never a reader's.
  if (vars.find_first_of("\"`$\\") != std::string::npos)
    throw std::invalid_argument("book::gnuplot: variables for " + script +
                                ".gp must not hold a double quote, backquote, $ or backslash");
  namespace fs = std::filesystem;
  if (emit_dir().empty()) throw std::logic_error("book::gnuplot: the chapter is not emitting");
  const fs::path dir = fs::path(emit_dir()) / "plot_data";
  fs::create_directories(dir);
  const fs::path dat = dir / (name + ".dat");
  const fs::path svg = dir / (name + ".svg");
  std::ofstream(dat) << data;
  const fs::path plots = fs::path(source_dir()) / "chapters" / "plots";
  const std::string command = "gnuplot -e \"datafile='" + dat.string() + "'; outfile='" +
                              svg.string() + "'" + (vars.empty() ? "" : "; " + vars) + "\" '" +
                              (plots / (script + ".gp")).string() + "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("gnuplot: cannot start '" + command + "'");
  std::string said;
  char buffer[256];
  while (fgets(buffer, sizeof buffer, pipe)) said += buffer;
  const int rc = pclose(pipe);
  if (rc != 0)
    throw std::runtime_error("gnuplot failed (exit " + std::to_string(rc) + ") on " + script +
                             ".gp; is Debian's gnuplot-nox installed? It said: " + said);
  std::ifstream in(svg);
  std::stringstream body;
  body << in.rdbuf();
  if (body.str().empty()) throw std::runtime_error("gnuplot wrote no SVG for " + script + ".gp");
  return plain_svg(body.str());
}

}  // namespace book
