/*
 * lines.c - streaming line reader; see lines.h.
 */
#include "compat.h"
#include "lines.h"
#include "error.h"

#define BLOCK (64 * 1024)

void lines_init(struct lines *lr, FILE *fp, size_t max_len, unsigned flags)
{
	memset(lr, 0, sizeof(*lr));
	lr->fp = fp;
	lr->flags = flags;
	lr->max_len = max_len ? max_len : LINES_DEFAULT_MAX;
	strbuf_init(&lr->line, 256);
	lr->blk = ab_malloc(BLOCK);
}

void lines_release(struct lines *lr)
{
	strbuf_release(&lr->line);
	free(lr->blk);
	lr->blk = NULL;
}

static int refill(struct lines *lr, struct strbuf *err)
{
	if (lr->eof)
		return 0;
	lr->blk_len = fread(lr->blk, 1, BLOCK, lr->fp);
	lr->blk_pos = 0;
	if (lr->blk_len == 0) {
		if (ferror(lr->fp))
			return ab_fail(err, AB_EIO, "read error: %s", strerror(errno));
		lr->eof = 1;
		return 0;
	}
	return 1;
}

int lines_next(struct lines *lr, struct strbuf *err)
{
	int too_long = 0, got_any = 0, terminated = 0;
	int use_cr = (lr->flags & LINES_CR) != 0;

	strbuf_reset(&lr->line);
	for (;;) {
		size_t i, start;
		int rc;

		if (lr->blk_pos >= lr->blk_len) {
			rc = refill(lr, err);
			if (rc < 0)
				return rc;
			if (rc == 0)
				break;
		}
		if (lr->pending_cr) {
			/* swallow the '\n' of a "\r\n" split across blocks */
			lr->pending_cr = 0;
			if (lr->blk[lr->blk_pos] == '\n') {
				lr->blk_pos++;
				lr->bytes++;
				continue;
			}
		}
		start = lr->blk_pos;
		if (!use_cr) {
			const unsigned char *nl = memchr(lr->blk + start, '\n', lr->blk_len - start);
			i = nl ? (size_t)(nl - lr->blk) : lr->blk_len;
		} else {
			for (i = start; i < lr->blk_len; i++) {
				unsigned char c = lr->blk[i];
				if (c == '\n' || c == '\r')
					break;
			}
		}
		got_any = 1;
		if (!too_long) {
			size_t n = i - start;
			if (lr->line.len + n > lr->max_len)
				too_long = 1;
			else
				strbuf_add(&lr->line, lr->blk + start, n);
		}
		lr->bytes += i - start;
		if (i < lr->blk_len) {
			unsigned char c = lr->blk[i];
			lr->blk_pos = i + 1;
			lr->bytes++;
			if (c == '\r') {
				if (lr->blk_pos < lr->blk_len) {
					if (lr->blk[lr->blk_pos] == '\n') {
						lr->blk_pos++;
						lr->bytes++;
					}
				} else {
					lr->pending_cr = 1;
				}
			}
			terminated = 1;
			goto done;
		}
		lr->blk_pos = lr->blk_len;
	}
	if (!got_any)
		return 0;
done:
	lr->lineno++;
	lr->unterminated = !terminated;
	if (too_long) {
		strbuf_reset(&lr->line);
		return ab_fail(err, AB_EDATA, "line %ld: longer than %zu bytes", lr->lineno,
			       lr->max_len);
	}
	/* Without LINES_CR, a trailing '\r' (CRLF file) is not data. */
	if (!use_cr && lr->line.len && lr->line.buf[lr->line.len - 1] == '\r')
		strbuf_setlen(&lr->line, lr->line.len - 1);
	return 1;
}
