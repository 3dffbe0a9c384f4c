package rt

import "os"

// go test answers from its test cache when a binary's last run passed and
// nothing it read changed; what it read is what the testing package logs
// while tests run (files, and variables read by os.Getenv). The reporter
// reads GOANOMALY once, before any test runs (from an init function in a
// binary that runs examples, from TestMain otherwise), so the report_dir
// that goanomaly test names anew each run was not in the cache key, and a
// binary that passes with a report, or runs examples and exits 0 though it
// found a data race (nofini.go), was answered "ok (cached)" by the next
// goanomaly test with no report. Each root construct of a binary run by
// goanomaly test reads GOANOMALY again, logged when a test or an example
// runs it, so such a result is never reused; a binary whose tests run no
// construct is cached as before.
func logTestEnv(r *reporter) {
	if r.cfg.reportDir != "" {
		os.Getenv("GOANOMALY")
	}
}
