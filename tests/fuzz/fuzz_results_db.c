/*
 * fuzz_results_db.c - libFuzzer driver for ReFrame results databases: every
 * input is written as a file and ingested as --format reframe-db through a
 * counting sink (tests/fuzz/fuzz_util.h).  Mutated SQLite pages exercise
 * SQLite's own defences and our schema checks (sessions must be a real
 * table) and the progress handler; a hang is a finding, so run it with a
 * per-input time limit:
 *   make fuzz-results-db            (FUZZ_TIME=60 FUZZ_TIMEOUT=10 seconds)
 * which seeds build/fuzz/corpus-results-db from make_results_db.py.
 */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf path = STRBUF_INIT;

	if (fuzz_input_file(data, size, "accelbench-fuzz-rdb-", ".db", &path) == 0) {
		fuzz_ingest(path.buf, "reframe-db");
		unlink(path.buf);
	}
	strbuf_release(&path);
	return 0;
}
