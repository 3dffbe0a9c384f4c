package rt

// Reports found before their sites were registered. A file's sites are
// registered by an init function of the file (RegisterSites), and Go runs
// a package's variable initializers before its init functions: a
// conflict in `var _ = NewLog()`, whose NewLog starts a goroutine, was
// printed as "Read of unknown site 1525 by iteration 0 of unknown site
// 1528" (Go's race tests, regression_test.go), and its sites' OrderedOK
// flags were not known to mask it. Such a report is kept, counted as
// found, and printed when the registration that names its sites runs,
// or at Fini with what is known then. halt_on_error=1 prints it at once: the
// program is about to exit. Only the program's reporter keeps them (a
// test's engine names sites it never registers).

// pendingReport is a report whose sites were not registered when found.
type pendingReport struct {
	e   *entry
	at  reportAt
	rep rawReport
	st  []frame
}

// sitesKnown reports whether both sites of rep are registered.
func sitesKnown(rep rawReport) bool {
	_, a := siteInfo(wordSite(rep.sink))
	_, b := siteInfo(wordSite(rep.source))
	return a && b
}

// keepPending keeps the report e was made for until its sites are known, and
// reports whether it did. Under r.mu.
func (r *reporter) keepPending(e *entry, at reportAt, rep rawReport) bool {
	if !r.program || r.cfg.halt || sitesKnown(rep) {
		return false
	}
	r.pending = append(r.pending, pendingReport{e, at, rep, callerStack(e.sink)})
	global.pending.Store(true)
	return true
}

// flushPending prints the pending reports whose sites are now known (all:
// every one). Under r.mu.
func (r *reporter) flushPending(all bool) {
	kept := r.pending[:0]
	for _, p := range r.pending {
		if !all && !sitesKnown(p.rep) {
			kept = append(kept, p)
			continue
		}
		e := p.e
		e.masked = e.class == nondet && (orderedOK(e.sink) || orderedOK(e.source))
		if e.masked {
			continue
		}
		if r.cfg.sarif {
			e.sarif = describeSARIF(p.at, p.rep, p.st)
		} else {
			r.print(p.at, p.rep, p.st)
		}
	}
	clear(r.pending[len(kept):])
	r.pending = kept
}

// sitesRegistered prints the pending reports that the sites just
// registered name.
func sitesRegistered() {
	if !global.pending.Load() {
		return
	}
	r := defaultReporter()
	r.mu.Lock()
	r.flushPending(false)
	r.mu.Unlock()
}
