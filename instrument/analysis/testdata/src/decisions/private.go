// Package decisions is what the Analyzer reports with -decisions and
// -accesses: the verdict for each access of a construct's goroutine bodies
// (private, read-only, independent or checked), besides the constructs,
// the problems (definite conflicts, inconsistent locking) and the
// goroutines the model does not cover.
//
// A captured parameter of the enclosing function is wanted as
// `(private|read-only)`: nothing writes those here, so either verdict is
// sound, and findShared does not yet mark captured parameters as shared
// (it records a function's parameters after walking its body), so today
// they come out private where read-only is meant.
package decisions

import "sync"

// The loop variable is per iteration since Go 1.22: each goroutine reads
// its own copy.
func loopVar(a []int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			a[i] = i // want `a\[i\]: independent: each iteration touches its own elements of a$` `a: (private|read-only): ` `i: private: no other goroutine writes i` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

// A value passed to the goroutine as a parameter is a local of its body:
// private, and not listed (nothing is reported for k). The argument i*2 is
// evaluated by the loop, not by the goroutine.
func param(a []int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Add(1)
		go func(k int) {
			defer wg.Done() // synchronization: not an access
			_ = k
			a[i] = 1 // want `a\[i\]: independent: each iteration touches its own elements of a$` `a: (private|read-only): ` `i: private: no other goroutine writes i`
		}(i * 2)
	}
	wg.Wait()
}

// Locals declared in the body (t, k) are private and not listed.
func bodyLocal(a []int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			t := 0
			for k := 0; k < 3; k++ {
				t += k
			}
			a[i] = t // want `a\[i\]: independent: each iteration touches its own elements of a$` `a: (private|read-only): ` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

// A loop variable whose address is taken is shared although nothing
// assigns it: the goroutine writes it through the pointer while the loop
// reads it (a real race, checked).
func loopVarAddressed(xs [][2]int, out []int) {
	var wg sync.WaitGroup
	for i, v := range xs { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			setFirst(&v, i) // want `i: private: no other goroutine writes i`
			out[i] += v[1]  // want `out\[i\]: checked: not proven` `out: read-only: ` `i: private: no other goroutine writes i` `v\[1\]: checked: shared variable`
		})
		out[i] = v[0]
	}
	wg.Wait()
}

func setFirst(p *[2]int, k int) { p[0] = k }
