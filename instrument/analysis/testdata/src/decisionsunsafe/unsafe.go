// Package decisionsunsafe imports unsafe, so no heap access of the package // want package:"views: decisionsunsafe imports unsafe"
// is proved: pointer arithmetic can reach any element from any other.
package decisionsunsafe

import (
	"sync"
	"unsafe"
)

// Iteration i writes a[i] and, through p, a[i+1]: the same element as
// iteration i+1. a[i] alone would be proven independent anywhere else.
func shiftedByArithmetic(a []int64) {
	var wg sync.WaitGroup
	for i := range len(a) - 1 { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			a[i] = 1                                                              // want `a\[i\]: checked: the package imports unsafe` `a: (private|read-only): ` `i: private: no other goroutine writes i`
			p := (*int64)(unsafe.Add(unsafe.Pointer(&a[i]), unsafe.Sizeof(a[i]))) // want `a: (private|read-only): ` `i: private: no other goroutine writes i` `a\[i\]: checked: the package imports unsafe` `a: (private|read-only): ` `i: private: no other goroutine writes i`
			*p = 2                                                                // want `\*p: checked: the package imports unsafe`
		})
	}
	wg.Wait()
}
