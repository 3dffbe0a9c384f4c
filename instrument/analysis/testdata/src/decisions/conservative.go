package decisions

import "sync"

// This file holds what the analysis must not prove outright.

// next and cur are parameters: the caller may pass one slice twice
// (smooth(a, a, k)), and then chunk c reads cur[j±1] from its neighbours'
// chunks while they write them. The proofs hold only when the two are
// apart, which the guard tests at run time: the guarded verdicts are the
// right answer, unguarded ones would be wrong.
func smooth(next, cur []float64, k int) {
	n := len(cur)
	var wg sync.WaitGroup
	for c := 0; c < k; c++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for j := c * n / k; j < (c+1)*n/k; j++ { // want `c: private: no other goroutine writes c` `n: read-only: nothing writes n while` `k: (private|read-only): ` `c: private: no other goroutine writes c` `n: read-only: nothing writes n while` `k: (private|read-only): `
				if j > 0 && j < n-1 { // want `n: read-only: nothing writes n while`
					next[j] = (cur[j-1] + cur[j] + cur[j+1]) / 3 // want `next\[j\]: independent: each iteration touches its own elements of next \(when it is apart from cur and the chunk bounds from c \* n / k do not overflow\)` `next: (private|read-only): ` `cur\[j - 1\]: read-only: nothing in the construct writes cur \(when it is apart from next\)` `cur: (private|read-only): ` `cur\[j\]: read-only: nothing in the construct writes cur \(when it is apart from next\)` `cur: (private|read-only): ` `cur\[j \+ 1\]: read-only: nothing in the construct writes cur \(when it is apart from next\)` `cur: (private|read-only): `
				}
			}
		})
	}
	wg.Wait()
}

type counter struct{ n []int }

func (s *counter) inc(i int) { s.n[i]++ }

// A method value is a function value: it runs checked, from its prologue,
// but the proofs do not follow what it writes (here s.n might be a).
func methodValue(s *counter, a []int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			f := s.inc // want `s: (private|read-only): `
			f(i)       // want `i: private: no other goroutine writes i`
			a[i] = 1   // want `a\[i\]: checked: calls a function value or an interface method` `a: (private|read-only): ` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

type incer interface{ inc(int) }

// An interface method may be any implementation: checked when it is one of
// the rewritten packages', never followed by the proofs.
func iface(x incer, a []int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			x.inc(i) // want `x: (private|read-only): ` `i: private: no other goroutine writes i`
			a[i] = 1 // want `a\[i\]: checked: calls a function value or an interface method` `a: (private|read-only): ` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

func bump(p *float64) { *p += 1 }

// The callee writes a float64 through a pointer, which may point into a.
func viaCallee(a []float64, p *float64) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			a[i] = 2 // want `a\[i\]: checked: not proven` `a: (private|read-only): ` `i: private: no other goroutine writes i`
			bump(p)  // want `p: (private|read-only): `
		})
	}
	wg.Wait()
}

// *p is a float64 that may be an element of a (p = &a[0]).
func viaPointer(a []float64, p *float64) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			a[i] = 2 // want `a\[i\]: checked: not proven` `a: (private|read-only): ` `i: private: no other goroutine writes i`
			*p = 1   // want `\*p: checked: not proven` `p: (private|read-only): `
		})
	}
	wg.Wait()
}

var visits int

func twoIter(yield func(int) bool) {
	for i := range 2 {
		visits++
		if !yield(i) {
			return
		}
	}
}

// A range over a function runs the iterator checked, from its prologue
// (here it writes visits in every goroutine), but the proofs do not follow
// it: a[i] is not proven.
func rangeFunc(a []int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for x := range twoIter { // want
				a[i] = x // want `a\[i\]: checked: ranges over a function, which runs unchecked` `a: read-only: nothing writes a while the construct runs` `i: private: no other goroutine writes i`
			}
		})
	}
	wg.Wait()
}
