package rt

import (
	"io"
	"os"
	"sync/atomic"
)

// A dormant binary (goanomaly build -dormant) holds two copies of every
// root construct: the statements as the program wrote them, and the checked
// ones. The rewriter puts them in the branches of
//
//	var _ga_c1 *_ga_rt.Construct
//	if _ga_i1 := _ga_rt.Sample(); _ga_i1 != 0 {
//		_ga_c1 = _ga_rt.Enter(nil, n, site); _ga_c1.Sampled(_ga_i1); … checked …
//	} else {
//		… as written …
//	}
//	wg.Wait()
//	_ga_c1.Join()
//
// so with GOANOMALY unset each root construct instance costs one load and
// a branch (and a Join on nil), and everything it runs is the user's code.
// check=1 takes the checked branch at every root instance: the binary is
// then the checked one goanomaly build makes, with its reports. sample=P
// takes it at a fraction P of root instances; a checked root instance runs
// everything nested in it checked (the checked copy calls the checked
// clones and forks checked goroutines), so its verdict is exact.

// Sampling modes (dormant.mode).
const (
	dormantOff    uint8 = iota // every root instance plain
	dormantAll                 // check=1: every root instance checked
	dormantSample              // sample=P: a fraction of root instances checked
	// Every root instance plain in a test binary run by goanomaly test
	// (report_dir set): each reads GOANOMALY, so that go test's cache
	// keys the result on it (testcache.go) and a later run with check=1
	// is not answered "ok (cached)" from this one.
	dormantOffLogged
)

// dormant is what GOANOMALY says a dormant binary checks. It is set once,
// at init, before any goroutine of the program starts, and only read after.
type dormant struct {
	mode      uint8
	threshold uint64 // sample: instance k is checked when hash(seed, k)>>11 < threshold
	seed      uint64
	// Root instances seen so far (numbered from 1), and how many of them
	// were checked and skipped (sample mode only).
	n, checked, skipped atomic.Uint64
}

// sampleOne is 2^53: a threshold that checks every instance.
const sampleOne = 1 << 53

// dormantMode is the dormant configuration of this program, a value (not
// a pointer) so that Sample's test is a single load. Like global, it is
// package-level state a program has exactly one of.
var dormantMode dormant

func init() {
	// The reporter warns about bad values when it parses the same string.
	dormantMode.configure(parseOptions(os.Getenv("GOANOMALY"), io.Discard))
}

// configure sets d from c: check=0 turns checking off whatever else is
// set; sample=P samples; check=1 checks everything.
func (d *dormant) configure(c config) {
	d.mode, d.seed = dormantOff, c.sampleSeed
	switch {
	case c.check == 0:
	case c.sample >= 0:
		d.mode, d.threshold = dormantSample, uint64(c.sample*sampleOne)
	case c.check == 1:
		d.mode = dormantAll
	}
	if d.mode == dormantOff && c.reportDir != "" {
		d.mode = dormantOffLogged
	}
}

// Sample decides whether the root construct instance about to start runs
// its checked copy. It returns the instance's number (from 1) when it does,
// and 0 when it runs as written. With checking off it costs one load and a
// branch, inlined into the caller.
func Sample() uint64 {
	if dormantMode.mode == dormantOff {
		return 0
	}
	return dormantMode.next()
}

// next numbers the next root instance and decides it: in sample mode from
// the seed and the number alone, so the same sequence of root instances
// samples the same ones in every run. It does not allocate.
func (d *dormant) next() uint64 {
	if d.mode == dormantOffLogged {
		os.Getenv("GOANOMALY")
		return 0
	}
	k := d.n.Add(1)
	if d.mode == dormantAll {
		return k
	}
	if d.sampled(k) {
		d.checked.Add(1)
		return k
	}
	d.skipped.Add(1)
	return 0
}

// sampled reports whether instance k is checked: the top 53 bits of a
// splitmix64 hash of seed and k, as a fraction of 2^53, fall below P.
func (d *dormant) sampled(k uint64) bool {
	return splitmix(d.seed^k*0x9E3779B97F4A7C15)>>11 < d.threshold
}

// splitmix is the finalizer of SplitMix64: a bijection that spreads
// consecutive inputs over all 64 bits.
func splitmix(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
	x = (x ^ x>>27) * 0x94D049BB133111EB
	return x ^ x>>31
}

// Sampled records, right after a root Enter in a dormant binary, that the
// construct's tree is root instance k, so that its reports name the
// instance when sampling (check=1 reports exactly as goanomaly build's
// binary does).
func (c *Construct) Sampled(k uint64) {
	if c != nil && dormantMode.mode == dormantSample {
		c.tree.instance, c.tree.instanceSite = k, c.site
	}
}

// sampleCounts returns the root instances checked and skipped, and whether
// the program samples.
func sampleCounts() (checked, skipped uint64, ok bool) {
	d := &dormantMode
	return d.checked.Load(), d.skipped.Load(), d.mode == dormantSample
}
