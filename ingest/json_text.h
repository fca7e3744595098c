/*
 * json_text.h - compact JSON text of a jansson value, byte for byte what
 * json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII) prints (keys in insertion
 * order, reals as jansson's %.17g), without jansson's per-call allocations
 * and with the text of recently printed reals cached: the ingest writer
 * path turns every run's params and metric metas into text, and printf of
 * doubles was a large part of its CPU.
 *
 * Ownership: struct ingest_jtext is the caller's (one per thread; it holds
 * no pointers, so it needs no release).  Text is appended to the caller's
 * strbuf; the value is only read.
 */
#ifndef AB_INGEST_JSON_TEXT_H
#define AB_INGEST_JSON_TEXT_H

#include "core/core.h"
#include <jansson.h>

#define INGEST_JTEXT_REALS 256 /* cached real texts (direct mapped) */

struct ingest_jtext {
	struct {
		uint64_t bits;
		unsigned char len; /* 0: empty slot */
		char s[31];
	} real[INGEST_JTEXT_REALS];
};

void ingest_jtext_init(struct ingest_jtext *c);
/* Append the text of v (an object or array, as json_dumps wants) to out.
 * Returns 0, or -1 when jansson would not print v either (not an object or
 * array, a string that is not UTF-8, nesting beyond 2048 levels); out then
 * holds a partial text the caller discards. */
int ingest_jtext_add(struct ingest_jtext *c, struct strbuf *out, const json_t *v);
/* The text as a new string the caller frees, NULL for a NULL v or on
 * failure (as json_dumps). */
char *ingest_jtext_dup(struct ingest_jtext *c, const json_t *v);

#endif
