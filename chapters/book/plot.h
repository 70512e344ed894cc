// Charts drawn by gnuplot for a chapter's page. A chart is drawn only when the chapter is run for
// the book (--emit): a plain report or a one-claim run draws nothing.
#pragma once

#include <string>

#include "book/check.h"

namespace book {

// The folder --emit writes to, or empty when the chapter is not emitting (set by Chapter::main).
const std::string& emit_dir();
void set_emit_dir(std::string dir);

// Writes `data` as a gnuplot data file under <emit_dir>/plot_data/, runs
// chapters/plots/<script>.gp on it and returns the SVG in the subset the book's pages accept
// (plain_svg). Throws, failing the claim with the reason, when gnuplot is missing or fails: a page
// must not silently lose a figure. vars, gnuplot statements ("series=1; title1='this run'"),
// are run before the script, after datafile and outfile are set; they may not hold a double
// quote, backquote, $ or backslash (std::invalid_argument).
std::string gnuplot(const std::string& script, const std::string& name, const std::string& data,
                    const std::string& vars = "");

// A check's chart: gnuplot(script, name, data, vars) shown as the figure `name` with its caption,
// only when the chapter is emitting for the book (a plain report or a one-claim run draws nothing).
void gnuplot_figure(Check& c, const std::string& name, const std::string& script,
                    const std::string& data, const std::string& caption,
                    const std::string& vars = "");

// gnuplot's SVG made plain: its <defs> hold point symbols (<use> with xlink:href) and text-box
// filters, which the book's charts do not use, and its groups set the `color` attribute for
// stroke="currentColor"; the colour is written into the stroke itself instead. What is left is in
// the embed tool's allowlist, which still checks every figure before it reaches a page.
std::string plain_svg(std::string svg);

}  // namespace book
