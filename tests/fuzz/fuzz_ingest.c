/*
 * fuzz_ingest.c - libFuzzer driver: every input is written to a file and
 * ingested through a counting sink, once with format detection and once
 * forced through each parser in turn, so every parser sees every input
 * (tests/fuzz/fuzz_util.h).  Build and run: make fuzz, then
 *   mkdir -p build/fuzz/corpus
 *   build/fuzz/fuzz_ingest -max_total_time=60 build/fuzz/corpus tests/fixtures
 * (libFuzzer writes the inputs it finds into the first folder, so never
 * tests/fixtures).
 */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf path = STRBUF_INIT;
	size_t i;

	if (fuzz_input_file(data, size, "accelbench-fuzz-", ".txt", &path) == 0) {
		fuzz_ingest(path.buf, NULL);
		for (i = 0; ingest_format_name(i); i++)
			fuzz_ingest(path.buf, ingest_format_name(i));
		unlink(path.buf);
	}
	strbuf_release(&path);
	return 0;
}
