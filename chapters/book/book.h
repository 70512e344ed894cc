// Everything a chapter program needs from the book runtime.
#pragma once

#include "book/bench_record.h"
#include "book/chapter.h"
#include "book/check.h"
#include "book/gpu.h"
#include "book/outputs.h"
#include "book/plumbing.h"
#include "book/plot.h"
#include "book/provenance.h"
#include "book/pytorch_record.h"
#include "book/quotes.h"
#include "book/ratios.h"
#include "book/show.h"
#include "book/sizes.h"
#include "book/status.h"
#include "book/timing.h"
#include "book/walks.h"
