/*
 * core.h - the public header of core/: strings, errors, hashing, streaming
 * line input, atomic output, numbers and text tables.  Everything else in
 * accelbench builds on these.
 */
#ifndef AB_CORE_H
#define AB_CORE_H

#include "compat.h"
#include "strbuf.h"
#include "error.h"
#include "sha256.h"
#include "lines.h"
#include "atomic.h"
#include "num.h"
#include "table.h"
#include "fsutil.h"

#define AB_VERSION "0.1.0"

#endif
