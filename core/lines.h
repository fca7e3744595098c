/*
 * lines.h - streaming line reader with a hard line-length limit.
 *
 * Reads a FILE in fixed blocks and hands out one line at a time, so memory
 * stays bounded by the longest accepted line, never the file size.
 * A line that exceeds max_len is an error (the rest of it is not buffered).
 *
 * Ownership: the reader borrows the FILE (caller closes it); the returned
 * line pointer is owned by the reader and valid until the next call.
 */
#ifndef AB_LINES_H
#define AB_LINES_H

#include "compat.h"
#include "strbuf.h"

enum lines_flags {
	LINES_CR = 1 << 0 /* a lone '\r' also ends a line (MLPerf logs) */
};

struct lines {
	FILE *fp;
	unsigned flags;
	size_t max_len;
	long lineno;          /* number of the line last returned (1-based) */
	uint64_t bytes;       /* bytes consumed so far */
	struct strbuf line;   /* current line, without its terminator */
	unsigned char *blk;
	size_t blk_len, blk_pos;
	int pending_cr;       /* last block ended in '\r' (for \r\n across blocks) */
	int eof;
	int unterminated;     /* the line last returned ended at end of file without
			       * a line terminator: in a table, a row cut short */
};

#define LINES_DEFAULT_MAX (1u << 20) /* 1 MiB */

void lines_init(struct lines *lr, FILE *fp, size_t max_len, unsigned flags);
void lines_release(struct lines *lr);
/*
 * Read the next line.  Returns 1 with lr->line set, 0 at end of file, or a
 * negative status with err set ("line N: longer than M bytes", or a read
 * error).  After an over-long line the reader is at the next line.
 */
int lines_next(struct lines *lr, struct strbuf *err);

#endif
