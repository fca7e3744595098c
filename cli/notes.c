/*
 * notes.c - notes the analysis commands print on stderr about what they
 * left out.
 */
#include "core/compat.h"
#include "cli.h"
#include "model/validate.h"

void cli_note_invalid(struct ctx *ctx, const char *suite, const char *benchmark,
		      const char *system)
{
	struct db_filter f = { suite, benchmark, system };
	struct strbuf err = STRBUF_INIT;
	long n = 0;

	if (ctx->db && db_count_invalid(ctx->db, &f, &n, &err) == 0 && n > 0)
		fprintf(stderr, "accelbench: note: %ld invalid run%s left out (impossible values;"
			" 'accelbench ls runs' says why)\n", n, n == 1 ? "" : "s");
	strbuf_release(&err);
}
