package rt

// A test binary whose examples run must not get a TestMain from goanomaly:
// examples run on the main goroutine, under TestMain, and an example that
// looks at its stack (runtime.Callers, debug.Stack, a recovered panic's
// frames) would see the added frame. Such a binary does not end through
// Fini, and nothing else can run when it ends: the testing package exits
// from main.main with no hook a package may set. So it calls NoFini from an
// init function (no frame on any stack a test can see), and the runtime
// writes its report_dir record (reportdir.go) at once and after each new
// report, marked "ended": false, with the status Fini would have chosen.
// goanomaly test reads it and fails the package itself; reports are
// printed as they are found, as always. Only the closing count lines of
// Fini are not printed, and the exit status of such a binary run by hand
// does not say that it found a data race.

// NoFini says the program ends without Fini or Status (see above).
func NoFini() { defaultReporter().noFini() }

func (r *reporter) noFini() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.unended = true
	r.writeProgress()
}

// writeProgress rewrites the report_dir record of a binary that ends
// without Fini, with the status Fini would choose now. r.mu is held.
func (r *reporter) writeProgress() {
	if r.unended {
		races, nondets, _ := r.counts()
		r.writeEnd(r.exitStatus(0, races, nondets))
	}
}
