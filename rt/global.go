package rt

import (
	"os"
	"sync"
	"sync/atomic"
)

// global is the runtime's only package-level mutable state, the things a
// checked program has exactly one of: the site table filled by the
// instrumented packages' init functions, the options and report sink
// read from GOANOMALY on first use, and the happens-before engine (the
// goroutine-local tables, gls.go and hb_gls.go, are the other exception).
// Tests build their own reporter, trees and engines
// instead of touching it.
var global struct {
	sitesMu sync.Mutex                 // serializes writers of sites
	sites   atomic.Pointer[[]SiteInfo] // indexed by Site; copied on write
	pending atomic.Bool                // the reporter keeps reports whose sites were not registered yet

	once sync.Once
	rep  *reporter

	hb hbEngine // the happens-before layer's threads, clocks and shadow (hb_thread.go)
}

// registerSites stores sites[i] as the info of site first+i.
func registerSites(first Site, sites []SiteInfo) {
	storeSites(first, sites)
	sitesRegistered() // reports found before these sites were known (report_pending.go)
}

// storeSites adds sites, numbered from first, to the registry.
func storeSites(first Site, sites []SiteInfo) {
	global.sitesMu.Lock()
	defer global.sitesMu.Unlock()
	var old []SiteInfo
	if p := global.sites.Load(); p != nil {
		old = *p
	}
	n := max(len(old), int(first)+len(sites))
	s := make([]SiteInfo, n)
	copy(s, old)
	copy(s[first:], sites)
	global.sites.Store(&s)
}

// siteInfo returns the info of s and whether it was registered.
func siteInfo(s Site) (SiteInfo, bool) {
	p := global.sites.Load()
	if p == nil || int(s) >= len(*p) || (*p)[s] == (SiteInfo{}) {
		return SiteInfo{}, false
	}
	return (*p)[s], true
}

// defaultReporter returns the program's reporter, configured from
// GOANOMALY on first use.
func defaultReporter() *reporter {
	global.once.Do(func() {
		cfg := parseOptions(os.Getenv("GOANOMALY"), os.Stderr)
		global.rep = newReporter(cfg, nil)
		global.rep.program = true
	})
	return global.rep
}
