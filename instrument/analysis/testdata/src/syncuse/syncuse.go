// Package syncuse runs parallel loops whose goroutines synchronize through
// another package's functions: the facts of syncdep make them unstructured,
// as when both packages are built together.
package syncuse

import (
	"sync"

	"syncdep"
)

func direct(s syncdep.Sem, a []int) { // want direct:`synchronizes: calls Acquire, which communicates by channel`
	var wg sync.WaitGroup
	for i := range a {
		wg.Go(func() { // want `the goroutines synchronize through Acquire, which communicates by channel — not checked`
			s.Acquire()
			a[i]++
			s.Release()
		})
	}
	wg.Wait()
}

func transitive(s syncdep.Sem, a []int) { // want transitive:`synchronizes: calls Guarded, which communicates by channel`
	var wg sync.WaitGroup
	for i := range a {
		wg.Go(func() { // want `the goroutines synchronize through Guarded, which communicates by channel — not checked`
			syncdep.Guarded(s, func() { a[i]++ })
		})
	}
	wg.Wait()
}
