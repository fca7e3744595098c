/*
 * fuzz_ingest.c - libFuzzer driver: every input is written to a file and
 * ingested twice through a counting sink, once with format detection and
 * once forced through each parser in turn, so every parser sees every
 * input.  Crashes, hangs, leaks and undefined behaviour are the findings;
 * rejections are the expected outcome.  Build and run: make fuzz, then
 *   build/fuzz/fuzz_ingest -max_total_time=60 tests/fixtures
 */
#include "core/compat.h"
#include "ingest/ingest.h"

#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	const char *paths[1];
	struct ingest_count_sink cs;
	struct ingest_opts o = { 0 };
	struct ingest_totals t;
	struct strbuf err = STRBUF_INIT;
	FILE *fp;
	size_t i;
	int n;

	n = snprintf(path, sizeof(path), "/tmp/accelbench-fuzz-%ld.txt", (long)getpid());
	if (n < 0 || (size_t)n >= sizeof(path))
		return 0;
	fp = fopen(path, "wb");
	if (!fp)
		return 0;
	if (size && fwrite(data, 1, size, fp) != size) {
		fclose(fp);
		return 0;
	}
	fclose(fp);
	paths[0] = path;
	ingest_count_sink_init(&cs);
	ingest_paths(paths, 1, &o, &cs.sink, &t, &err);
	for (i = 0; ingest_format_name(i); i++) {
		o.format = ingest_format_name(i);
		strbuf_reset(&err);
		ingest_paths(paths, 1, &o, &cs.sink, &t, &err);
	}
	strbuf_release(&err);
	unlink(path);
	return 0;
}
