/*
 * fuzz_results_db.c - libFuzzer driver for ReFrame results databases: every
 * input is written as a file and ingested as --format reframe-db through a
 * counting sink.  Mutated SQLite pages exercise SQLite's own defences and
 * our schema checks (sessions must be a real table) and the progress
 * handler; a hang is a finding, so run it with a per-input time limit:
 *   make fuzz-results-db            (FUZZ_TIME=60 FUZZ_TIMEOUT=10 seconds)
 * which seeds build/fuzz/corpus-results-db from make_results_db.py.
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
	int n;

	n = snprintf(path, sizeof(path), "/tmp/accelbench-fuzz-rdb-%ld.db", (long)getpid());
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
	o.format = "reframe-db";
	ingest_paths(paths, 1, &o, &cs.sink, &t, &err);
	strbuf_release(&err);
	unlink(path);
	return 0;
}
