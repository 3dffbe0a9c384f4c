// Package decisionsreflect imports reflect, so no heap access of the // want package:"views: decisionsreflect imports reflect"
// package is proved: a reflect.Value reaches memory the analysis cannot
// follow.
package decisionsreflect

import (
	"reflect"
	"sync"
)

// Iteration i writes s[i] directly and s[(i+1)%n] through reflect: the
// element iteration i+1 writes.
func viaReflect(s []int) {
	n := len(s)
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			s[i] = i                                               // want `s\[i\]: checked: the package imports reflect` `s: (private|read-only): ` `i: private: no other goroutine writes i` `i: private: no other goroutine writes i`
			reflect.ValueOf(s).Index((i + 1) % n).SetInt(int64(i)) // want `s: (private|read-only): ` `i: private: no other goroutine writes i` `n: read-only: nothing writes n while` `i: private: no other goroutine writes i` `calls \(reflect.Value\).SetInt, which reaches memory through reflection — not checked`
		})
	}
	wg.Wait()
}
