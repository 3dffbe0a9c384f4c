// Package formssem has loops bounded by a channel semaphore (the parent
// sends before each start, each goroutine receives at its end): they are
// checked as the plain loop. The variants whose channel orders the
// goroutines in a way the plain loop does not cover are noted, with the
// use that breaks the rule.
package formssem

import "sync"

// gonum's blas Dgemm form: Done then the release in one deferred literal.
func deferredRelease(a []int) {
	var wg sync.WaitGroup
	lim := make(chan struct{}, 4)
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Add(1)
		lim <- struct{}{}
		go func() {
			defer func() {
				wg.Done()
				<-lim
			}()
			a[i] = i
		}()
	}
	wg.Wait()
}

func releaseAfterDone(a []int) {
	var wg sync.WaitGroup
	lim := make(chan bool, 2)
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		lim <- true
		wg.Add(1)
		go func() {
			a[i] = i
			wg.Done()
			<-lim
		}()
	}
	wg.Wait()
}

func releaseDeferredLast(a []int) {
	var wg sync.WaitGroup
	const k = 8
	lim := make(chan bool, k)
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Add(1)
		lim <- true
		go func() {
			defer wg.Done()
			defer func() { <-lim }()
			a[i] = i
		}()
	}
	wg.Wait()
}

func withWgGo(a []int) {
	var wg sync.WaitGroup
	lim := make(chan bool, 3)
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		lim <- true
		wg.Go(func() {
			defer func() { <-lim }()
			a[i] = i
		})
	}
	wg.Wait()
}

func joinedByChannel(a []int) {
	done := make(chan bool)
	lim := make(chan bool, 3)
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		lim <- true
		go func() {
			a[i] = i
			<-lim
			done <- true
		}()
	}
	for range a {
		<-done
	}
}

// Channels that order the goroutines beyond the plain loop: noted.

func capacityOne(a []int) { // want capacityOne:"synchronizes: communicates by channel"
	var wg sync.WaitGroup
	lim := make(chan bool, 1)
	for i := range a {
		lim <- true
		wg.Add(1)
		go func() { // want `the parent sends on channel lim while the goroutines run, and lim is not a semaphore of theirs: its capacity is 1, so the goroutines run one after another, which block tags cannot express — not checked`
			defer wg.Done()
			defer func() { <-lim }()
			a[i] = i
		}()
	}
	wg.Wait()
}

// A capacity known at run time: each start checks it (rt.ForkIf).
func capacityRuntime(a []int, k int) {
	var wg sync.WaitGroup
	lim := make(chan bool, k)
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		lim <- true
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-lim }()
			a[i] = i
		}()
	}
	wg.Wait()
}

func capacityRuntimeWgGo(a []int, k int) { // want capacityRuntimeWgGo:"synchronizes: communicates by channel"
	var wg sync.WaitGroup
	lim := make(chan bool, k)
	for i := range a {
		lim <- true
		wg.Go(func() { // want `its capacity k is not a constant, and a start is not a go statement of a function literal, which alone can be left unchecked when the capacity is 1 at run time`
			defer func() { <-lim }()
			a[i] = i
		})
	}
	wg.Wait()
}

func releaseFirst(a []int) { // want releaseFirst:"synchronizes: communicates by channel"
	var wg sync.WaitGroup
	lim := make(chan bool, 2)
	for i := range a {
		lim <- true
		wg.Add(1)
		go func() { // want `channel lim bounds the goroutines like a semaphore, but a goroutine does more after its release than wg.Done`
			defer wg.Done()
			<-lim
			a[i] = i
		}()
	}
	wg.Wait()
}

func parentReceives(a []int) { // want parentReceives:"synchronizes: communicates by channel"
	var wg sync.WaitGroup
	lim := make(chan bool, 2)
	for i := range a {
		lim <- true
		wg.Add(1)
		go func() { // want `channel lim bounds the goroutines like a semaphore, but the parent receives from it; the construct is not a plain loop`
			defer wg.Done()
			defer func() { <-lim }()
			a[i] = i
		}()
	}
	<-lim
	wg.Wait()
}

func prefilled(a []int) { // want prefilled:"synchronizes: communicates by channel"
	var wg sync.WaitGroup
	lim := make(chan bool, 2)
	lim <- true
	for i := range a {
		lim <- true
		wg.Add(1)
		go func() { // want `but the function also sends on it outside the construct's starts`
			defer wg.Done()
			defer func() { <-lim }()
			a[i] = i
		}()
	}
	wg.Wait()
}

func skippedStart(a []int) { // want skippedStart:"synchronizes: communicates by channel"
	var wg sync.WaitGroup
	lim := make(chan bool, 2)
	for i := range a {
		lim <- true
		if i == 3 {
			continue
		}
		wg.Add(1)
		go func() { // want `but control flow between an acquire and its start may skip the start`
			defer wg.Done()
			defer func() { <-lim }()
			a[i] = i
		}()
	}
	wg.Wait()
}

func passed(a []int) { // want passed:"synchronizes: communicates by channel"
	var wg sync.WaitGroup
	lim := make(chan bool, 2)
	for i := range a {
		lim <- true
		wg.Add(1)
		go func() { // want `but it is passed to release`
			defer wg.Done()
			a[i] = i
			release(lim)
		}()
	}
	wg.Wait()
}

func release(c chan bool) { <-c } // want release:"synchronizes: communicates by channel"

func twoReleases(a []int) { // want twoReleases:"synchronizes: communicates by channel"
	var wg sync.WaitGroup
	lim := make(chan bool, 2)
	for i := range a {
		lim <- true
		wg.Add(1)
		go func() { // want `but a goroutine receives from it 2 times`
			defer wg.Done()
			defer func() { <-lim; <-lim }()
			a[i] = i
		}()
	}
	wg.Wait()
}

func named(a []int) { // want named:"synchronizes: communicates by channel"
	var wg sync.WaitGroup
	lim := make(chan bool, 2)
	for i := range a {
		lim <- true
		wg.Add(1)
		go put(&wg, a, i) // want `but a goroutine runs a named function or function value, whose release cannot be matched to its acquire`
	}
	wg.Wait()
}

func put(wg *sync.WaitGroup, a []int, i int) {
	defer wg.Done()
	a[i] = i
}
