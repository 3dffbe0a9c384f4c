// Package exits2 has goroutines that keep running after they signal the
// join (O1), joins that receive fewer values than there are goroutines
// (O2), and parents that may leave through a call that never returns (O3):
// each is noted and not checked. The variants that keep the model's
// assumptions stay constructs.
package exits2

import "sync"

func doneThenWrite(a []int) {
	var wg sync.WaitGroup
	for i := range a {
		wg.Add(1)
		go func() { // want `the goroutine calls Done before its last statement \(or inside other code\); the join does not wait for what runs after it — not checked`
			a[i] = i
			wg.Done()
			a[i] = 2 * i
		}()
	}
	wg.Wait()
}

func deferAfterDone(a []int) {
	var wg sync.WaitGroup
	for i := range a {
		wg.Add(1)
		go func() { // want `the goroutine defers Done after other calls, so Done runs before them \(deferred calls run last-in first-out\); the join does not wait for what runs after it — not checked`
			defer func() { a[i] = i }()
			defer wg.Done()
		}()
	}
	wg.Wait()
}

func doneThenDefer(a []int) {
	var wg sync.WaitGroup
	for i := range a {
		wg.Add(1)
		go func() { // want `the goroutine calls Done before its deferred calls run; the join does not wait for what runs after it — not checked`
			defer func() { a[i] = i }()
			a[i]++
			wg.Done()
		}()
	}
	wg.Wait()
}

func doneTwice(a []int) {
	var wg sync.WaitGroup
	for i := range a {
		wg.Add(1)
		go func() { // want `the goroutine calls Done more than once; the join does not wait for what runs after it — not checked`
			if a[i] < 0 {
				wg.Done()
				return
			}
			a[i]++
			wg.Done()
		}()
	}
	wg.Wait()
}

// worker signals before its last write: a named function is held to the
// same rule as a literal.
func worker(wg *sync.WaitGroup, a []int, i int) {
	a[i] = i
	wg.Done()
	a[i] = 2 * i
}

func namedDoneEarly(a []int) {
	var wg sync.WaitGroup
	for i := range a {
		wg.Add(1)
		go worker(&wg, a, i) // want `the goroutine calls Done before its last statement \(or inside other code\); the join does not wait for what runs after it — not checked`
	}
	wg.Wait()
}

func sendThenDefer(a []int) { // want sendThenDefer:"synchronizes: communicates by channel"
	done := make(chan bool, len(a))
	for i := range a {
		go func() { // want `the goroutine sends on its join channel before its deferred calls run; the join does not wait for them — not checked`
			defer func() { a[i] = i }()
			done <- true
		}()
	}
	for range a {
		<-done
	}
}

// The signal runs last: these stay constructs.

func deferDoneFirst(a []int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { a[i]++ }()
			a[i] = i
		}()
	}
	wg.Wait()
}

func finalDone(a []int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Add(1)
		go func() {
			a[i] = i
			wg.Done()
		}()
	}
	wg.Wait()
}

func deferredLitDone(a []int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Add(1)
		go func() {
			defer func() {
				a[i]++
				wg.Done()
			}()
			a[i] = i
		}()
	}
	wg.Wait()
}

func wgGoDefers(a []int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			defer func() { a[i]++ }()
			a[i] = i
		})
	}
	wg.Wait()
}
