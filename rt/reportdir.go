package rt

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// report_dir=DIR is how goanomaly test learns what each checked test binary
// reported, also when go test hides the binary's output (a passing package
// in package-list mode). The binary writes into DIR, named after its
// process id:
//
//	<pid>.out   a copy of everything the runtime printed on stderr
//	<pid>.json  at Fini (or Status, or halt_on_error's exit), one object:
//	            the summary of format=json, with "pid", "ppid", "dir" (the
//	            working directory: go test runs a package's binary in the
//	            package's directory), "status" (the exit status the runtime
//	            chose) and "stderr" (whether the reports went to stderr,
//	            false with log_path). A binary that ends without Fini
//	            (nofini.go) writes it when it starts and after each new
//	            report, with "ended": false.
//
// Reports are copied when they are printed, so a binary that crashes later
// leaves them behind; a binary without <pid>.json did not end through the
// runtime (it failed, and go test showed its output).

// tee returns w, copying to <pid>.out in report_dir when w is stderr.
func (r *reporter) tee(w io.Writer) io.Writer {
	if r.cfg.reportDir == "" || w != io.Writer(os.Stderr) {
		return w
	}
	f, err := os.OpenFile(r.reportFile(".out"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o666)
	if err != nil {
		return w
	}
	return io.MultiWriter(w, f)
}

// writeEnd writes <pid>.json in report_dir, if set. r.mu is held.
func (r *reporter) writeEnd(status int) {
	if r.cfg.reportDir == "" {
		return
	}
	races, nondets, byKind := r.counts()
	rec := r.jsonSummary(races, nondets, byKind)
	dir, _ := os.Getwd()
	rec["pid"], rec["ppid"], rec["dir"] = os.Getpid(), os.Getppid(), dir
	rec["status"], rec["stderr"] = status, r.cfg.logPath == ""
	if r.unended {
		rec["ended"] = false // written while it runs: it ends without Fini (nofini.go)
	}
	b, err := json.Marshal(rec)
	if err == nil {
		os.WriteFile(r.reportFile(".json"), append(b, '\n'), 0o666)
	}
}

// reportFile returns the name of this process's file with suffix in report_dir.
func (r *reporter) reportFile(suffix string) string {
	return filepath.Join(r.cfg.reportDir, strconv.Itoa(os.Getpid())+suffix)
}
