// Package joinscallee runs constructs whose goroutines synchronize through
// calls to joinsdep and to its own functions: the facts make them
// unstructured, with the reason.
package joinscallee

import (
	"sync"
	"sync/atomic"

	"joinsdep"
)

func pollGetter(a []int) { // want pollGetter:`synchronizes: polls IsSet \(it returns an atomic value\)`
	var f joinsdep.Flag
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); a[0] = 1; f.Set() }() // want `the goroutines poll IsSet, which returns an atomic value — not checked`
	go func() {                                        // want `the goroutines poll IsSet, which returns an atomic value — not checked`
		defer wg.Done()
		for !f.IsSet() {
		}
		a[0]++
	}()
	wg.Wait()
}

func waitHelper(a []int) { // want waitHelper:`synchronizes: calls WaitSet, which polls IsSet \(it returns an atomic value\)`
	var f joinsdep.Flag
	var wg sync.WaitGroup
	for i := range a {
		wg.Go(func() { // want `the goroutines synchronize through WaitSet, which polls IsSet \(it returns an atomic value\)`
			if i == 0 {
				a[0] = 1
				f.Set()
				return
			}
			f.WaitSet()
			a[i] = a[0]
		})
	}
	wg.Wait()
}

func lockedGetter(a []int) { // want lockedGetter:`synchronizes: polls Done \(it returns state read under a lock\)`
	var b joinsdep.Box
	var wg sync.WaitGroup
	for i := range a {
		wg.Go(func() { // want `the goroutines poll Done, which returns state read under a lock`
			if i == 0 {
				a[0] = 1
				b.Finish()
				return
			}
			done := b.Done()
			for !done {
				done = b.Done()
			}
			a[i] = a[0]
		})
	}
	wg.Wait()
}

func meet(a []int) { // want meet:`synchronizes: calls Meet, which waits on a WaitGroup its siblings signal`
	var wg, bar sync.WaitGroup
	bar.Add(len(a))
	for i := range a {
		wg.Go(func() { // want `the goroutines synchronize through Meet, which waits on a WaitGroup its siblings signal`
			a[i] = i
			joinsdep.Meet(&bar)
			_ = a[(i+1)%len(a)]
		})
	}
	wg.Wait()
}

// ready is this package's getter of an atomic flag.
func ready(f *atomic.Bool) bool { return f.Load() } // want ready:`returns an atomic value`

// spin is a named goroutine body that waits for the flag through ready.
func spin(wg *sync.WaitGroup, f *atomic.Bool, a []int) { // want spin:`synchronizes: polls ready \(it returns an atomic value\)`
	defer wg.Done()
	for !ready(f) {
	}
	a[0]++
}

func namedBody(a []int) { // want namedBody:`synchronizes: calls spin, which polls ready \(it returns an atomic value\)`
	var f atomic.Bool
	var wg sync.WaitGroup
	wg.Add(2)
	go spin(&wg, &f, a)                                      // want `the goroutines synchronize through spin, which polls ready \(it returns an atomic value\)`
	go func() { defer wg.Done(); a[0] = 1; f.Store(true) }() // want `the goroutines synchronize through spin, which polls ready`
	wg.Wait()
}

// A getter whose value is only stored, not steering anything, leaves the
// construct checked.
func getterStored(a []bool) {
	var f joinsdep.Flag
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 105`
		wg.Go(func() { a[i] = f.IsSet() })
	}
	wg.Wait()
}
