// Package aliasviews imports a package that imports unsafe: slices of // want package:"views: aliasviews/view imports unsafe"
// different element types may be one array.
package aliasviews

import (
	"sync"

	"aliasviews/view"
)

// u and f are guarded against each other although their types differ.
func shift(u []int32, f []float32) {
	var wg sync.WaitGroup
	for i := 1; i < len(u); i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			u[i] = int32(f[i-1]) // want `u: read-only: nothing writes u while the construct runs` `u\[i\]: independent: each iteration touches its own elements of u \(when it is apart from f\)` `i: private: no other goroutine writes i` `f: read-only: nothing writes f while the construct runs` `f\[i - 1\]: read-only: nothing in the construct writes f \(when it is apart from u\)` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

// A write through a pointer of another type may be any element of u.
func point(u []int32, p *float32) {
	var wg sync.WaitGroup
	for i := range u { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			u[i] = 1 // want `u: read-only: nothing writes u while the construct runs` `u\[i\]: checked: not proven` `i: private: no other goroutine writes i`
			*p = 2   // want `\*p: checked: not proven` `p: read-only: nothing writes p while the construct runs`
		})
	}
	wg.Wait()
}

// Floats is view's, to use the import.
var Floats = view.Floats
