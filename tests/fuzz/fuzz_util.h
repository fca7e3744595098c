/*
 * fuzz_util.h - shared by the libFuzzer drivers (fuzz_*.c): each input is
 * written to a file of its own (the parsers read paths), named after the
 * process so that parallel fuzzing jobs never share one, and ingested
 * through a counting sink; the file is removed afterwards.  Rejections are
 * the expected outcome; crashes, hangs, leaks and undefined behaviour are
 * the findings.
 */
#ifndef AB_FUZZ_UTIL_H
#define AB_FUZZ_UTIL_H

#include "core/compat.h"
#include "ingest/ingest.h"

#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Write data to $TMPDIR (else /tmp)/<stem><pid><suffix>; path is set.
 * 0, or -1 when the file cannot be written (the input is then skipped). */
static inline int fuzz_input_file(const uint8_t *data, size_t size, const char *stem,
				  const char *suffix, struct strbuf *path)
{
	const char *dir = getenv("TMPDIR");
	FILE *fp;
	int ok;

	strbuf_reset(path);
	strbuf_addf(path, "%s/%s%ld%s", dir && *dir ? dir : "/tmp", stem, (long)getpid(), suffix);
	fp = fopen(path->buf, "wb");
	if (!fp)
		return -1;
	ok = !size || fwrite(data, 1, size, fp) == size;
	if (fclose(fp) != 0 || !ok) {
		unlink(path->buf);
		return -1;
	}
	return 0;
}

/* Ingest path once through a counting sink, as format (NULL: detected). */
static inline void fuzz_ingest(const char *path, const char *format)
{
	const char *paths[1];
	struct ingest_count_sink cs;
	struct ingest_opts o = { 0 };
	struct ingest_totals t;
	struct strbuf err = STRBUF_INIT;

	paths[0] = path;
	o.format = format;
	ingest_count_sink_init(&cs);
	ingest_paths(paths, 1, &o, &cs.sink, &t, &err);
	strbuf_release(&err);
}

#endif
