/*
 * reframe.c - `accelbench run reframe [-- ARGS...]`: run ReFrame (from
 * PATH, or --reframe PATH) with its report, perflogs and stage/output
 * directories pointed into a run folder we own:
 *   reframe --prefix F/rfm --perflogdir F/perflogs --report-file F/report.json ARGS...
 * then name report.json and perflogs/ for ingest (ingest/reframe_*.c).
 * ReFrame exits non-zero when a test fails; those failures are in its
 * report.  Only when it wrote no report at all does the run land as a
 * failed run of its own, with ReFrame's exit status and output tail.
 */
#include "core/compat.h"
#include "run_priv.h"

#include <unistd.h>

int run_reframe(const struct run_common *c, const struct run_reframe_opts *o,
		struct run_result *res, struct strbuf *err)
{
	struct strbuf exe = STRBUF_INIT, folder = STRBUF_INIT, prefix = STRBUF_INIT,
		      perflogs = STRBUF_INIT, report = STRBUF_INIT, out = STRBUF_INIT,
		      host = STRBUF_INIT, reason = STRBUF_INIT;
	struct run_proc_opts po = { 0 };
	struct run_proc_result pr;
	const char **argv = NULL;
	json_t *manifest = NULL, *prov;
	struct run_session_power sp;
	size_t i, n = 0;
	int rc = 0;

	memset(&sp, 0, sizeof(sp));

	if (!run_which(o->reframe ? o->reframe : "reframe", &exe)) {
		strbuf_release(&exe); /* run_which() filled it while searching */
		if (o->reframe)
			return ab_fail(err, AB_EUSAGE, "run reframe: '%s' is not an executable",
				       o->reframe);
		return ab_fail(err, AB_EUSAGE,
			       "run reframe: ReFrame is not installed ('reframe' is not in PATH); "
			       "install it (pip install reframe-hpc) or give --reframe PATH");
	}
	if (c->slurm.enabled) {
		rc = run_via_slurm(c, "reframe", "reframe", "result", "", 0, res, err);
		goto out;
	}
	if (c->dry_run)
		strbuf_addf(&folder, "%s/reframe/<UTC time>", c->runs_dir ? c->runs_dir : "runs");
	else if ((rc = run_folder_use(c, "reframe", &folder, err)) < 0)
		goto out;
	strbuf_addf(&prefix, "%s/rfm", folder.buf);
	strbuf_addf(&perflogs, "%s/perflogs", folder.buf);
	strbuf_addf(&report, "%s/report.json", folder.buf);
	strbuf_addf(&out, "%s/reframe.out", folder.buf);
	argv = ab_calloc(o->nargs + 8, sizeof(*argv));
	argv[n++] = exe.buf;
	argv[n++] = "--prefix";
	argv[n++] = prefix.buf;
	argv[n++] = "--perflogdir";
	argv[n++] = perflogs.buf;
	argv[n++] = "--report-file";
	argv[n++] = report.buf;
	for (i = 0; i < o->nargs; i++)
		argv[n++] = o->args[i];
	argv[n] = NULL;
	if (c->dry_run) {
		fputs("dry run: would run\n  ", c->out);
		run_print_argv(c->out, argv);
		fprintf(c->out, "and ingest %s and %s/\n", report.buf, perflogs.buf);
		goto out;
	}
	fprintf(c->out, "run reframe: %s in %s\n", exe.buf, folder.buf);
	rc = run_session_power_start(&sp, o->power, o->interval_ms, folder.buf, "reframe", c->out,
				     err);
	fflush(c->out);
	if (rc < 0)
		goto out;
	po.argv = argv;
	po.out_path = out.buf;
	po.tee = c->verbose;
	po.timeout_s = c->timeout_s;
	rc = run_proc(&po, &pr, err);
	if (rc < 0)
		goto out;
	run_hostname(&host);
	prov = run_provenance_new(c, "reframe", argv);
	rc = run_session_power_stop(&sp, prov, err);
	if (rc < 0) {
		json_decref(prov);
		goto out;
	}
	strbuf_reset(&reason);
	run_iso(&reason, pr.t_start);
	json_object_set_new(prov, "started", json_string(reason.buf));
	strbuf_reset(&reason);
	run_iso(&reason, pr.t_end);
	json_object_set_new(prov, "finished", json_string(reason.buf));
	json_object_set_new(prov, "exit_status", json_integer(pr.exit_status));
	if (getenv("SLURM_JOB_ID"))
		json_object_set_new(prov, "slurm_job_id", json_string(getenv("SLURM_JOB_ID")));
	strbuf_reset(&reason);
	manifest = run_manifest_new("reframe", "reframe", c->system ? c->system : host.buf,
				    "result", "", 0, prov);
	json_object_set_new(manifest, "ingest", json_array());
	if (access(report.buf, F_OK) == 0)
		json_array_append_new(json_object_get(manifest, "ingest"), json_string("report.json"));
	if (access(perflogs.buf, F_OK) == 0)
		json_array_append_new(json_object_get(manifest, "ingest"), json_string("perflogs"));
	if (!json_array_size(json_object_get(manifest, "ingest")) || pr.interrupted ||
	    pr.timed_out || pr.signaled) {
		run_proc_reason(&reason, &pr, "reframe");
		if (!json_array_size(json_object_get(manifest, "ingest")))
			strbuf_addstr(&reason, " and wrote no report");
		run_manifest_add(manifest, run_entry_failed(1, pr.interrupted ? "aborted" : "failed",
							    reason.buf, out.buf, pr.t_start,
							    pr.t_end));
	}
	fprintf(c->out, "  reframe exited with status %d%s\n", pr.exit_status,
		pr.exit_status && !reason.len ? " (failed tests are in its report)" : "");
	if (reason.len) {
		struct strbuf tail = STRBUF_INIT;
		run_output_tail(&tail, out.buf, 10, 2048);
		fprintf(stderr, "accelbench: %s; output ends:\n%s\n", reason.buf, tail.buf);
		strbuf_release(&tail);
	}
	rc = run_finish(c, folder.buf, manifest, res, err);
	if (rc == 0 && pr.interrupted)
		rc = -RUN_INTERRUPTED;
	else if (rc == 0 && (reason.len || pr.exit_status))
		rc = ab_fail(err, AB_EDATA, "run reframe: %s",
			     reason.len ? reason.buf : "some tests failed (see the report)");
out:
	run_session_power_release(&sp);
	free(argv);
	json_decref(manifest);
	strbuf_release(&exe);
	strbuf_release(&folder);
	strbuf_release(&prefix);
	strbuf_release(&perflogs);
	strbuf_release(&report);
	strbuf_release(&out);
	strbuf_release(&host);
	strbuf_release(&reason);
	return rc;
}
