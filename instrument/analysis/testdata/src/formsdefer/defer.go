// Package formsdefer has constructs joined by `defer wg.Wait()` at the top
// of the function body: the join is at the function's end, every return
// goes through it. The variants where the deferred Wait may not wait for
// the goroutines it seems to are noted with the reason.
package formsdefer

import (
	"sync"
	"testing"
)

func loop(a []int) {
	var wg sync.WaitGroup
	defer wg.Wait()
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 22`
		wg.Add(1)
		go func() {
			defer wg.Done()
			a[i] = i
		}()
	}
}

// The parent's code after the loop, returns included, runs while the
// goroutines run: it is the parent's code in the construct.
func returns(a []int, k int) int {
	var wg sync.WaitGroup
	defer wg.Wait()
	if k < 0 {
		return 0 // before the construct: it is never entered
	}
	for i := range a { // want `parallel sections of 1 goroutine start\(s\), joined at line 43`
		wg.Add(1)
		go func() {
			defer wg.Done()
			a[i] = i
		}()
	}
	if k > len(a) {
		return -1
	}
	return k
}

// gonum's blas Dgemm: starts in a nested loop, bounded by a semaphore.
func dgemm(c []int, m, n int) {
	lim := make(chan struct{}, 4)
	var wg sync.WaitGroup
	defer wg.Wait()
	for i := 0; i < m; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line 63`
		for j := 0; j < n; j++ {
			lim <- struct{}{}
			wg.Add(1)
			go func(i, j int) {
				defer func() {
					wg.Done()
					<-lim
				}()
				c[i*n+j] = i + j
			}(i, j)
		}
	}
}

// t.Fatal ends the goroutine through runtime.Goexit, which runs the
// deferred Wait too.
func fatal(t *testing.T, a []int) { // want fatal:"ends the goroutine: calls t.Fatal"
	var wg sync.WaitGroup
	defer wg.Wait()
	for i := range a { // want `parallel sections of 1 goroutine start\(s\), joined at line 76`
		wg.Go(func() { a[i] = i })
	}
	if len(a) > 3 {
		t.Fatal("too long")
	}
}

// Deferred Waits that may not wait for these goroutines: noted.

func inBranch(a []int, wait bool) {
	var wg sync.WaitGroup
	if wait {
		defer wg.Wait()
	}
	for i := range a {
		wg.Go(func() { a[i] = i }) // want `wg.Wait\(\) is deferred inside a loop or branch, so the function's end is not a join the model can tie to these goroutines — not checked`
	}
}

func afterStarts(a []int) {
	var wg sync.WaitGroup
	for i := range a {
		wg.Go(func() { a[i] = i }) // want `wg.Wait\(\) is deferred after the goroutines start, so a return before it leaves them running — not checked`
	}
	defer wg.Wait()
}

func reassigned(a []int) {
	wg := new(sync.WaitGroup)
	defer wg.Wait()
	for i := range a {
		wg.Go(func() { a[i] = i }) // want `wg is assigned after defer wg.Wait\(\), which waits on the value it had at the defer — not checked`
		if i == 2 {
			wg = new(sync.WaitGroup)
		}
	}
}

var global sync.WaitGroup

func notLocal(a []int) { // want notLocal:`synchronizes: waits on a WaitGroup its siblings signal \(global.Wait\): a barrier between the goroutines`
	defer global.Wait()
	for i := range a {
		global.Go(func() { a[i] = i }) // want `the deferred global.Wait\(\) waits on a WaitGroup that is not a local variable; the goroutines may signal another one — not checked`
	}
}

func gotoAcross(a []int) {
	var wg sync.WaitGroup
	if len(a) == 0 {
		goto start
	}
	defer wg.Wait()
start:
	for i := range a {
		wg.Go(func() { a[i] = i }) // want `a goto jumps across defer wg.Wait\(\), which then runs never or twice — not checked`
	}
}

func deferredBetween(a []int) {
	var wg sync.WaitGroup
	defer wg.Wait()
	defer func() { a[0] = 0 }()
	for i := range a {
		wg.Go(func() { a[i] = i }) // want `a call deferred between defer wg.Wait\(\) and the goroutine starts runs before the Wait, while they run, outside the construct — not checked`
	}
}

func namedResult(a []int) (n int) {
	var wg sync.WaitGroup
	defer wg.Wait()
	for i := range a {
		wg.Go(func() { n += a[i] }) // want `a return with values assigns the named results while the goroutines still run \(before the deferred Wait\); that write is not checked — not checked`
	}
	return len(a)
}

// A named result returned bare is assigned by the goroutines only.
func namedBare(a []int) (n int) {
	var wg sync.WaitGroup
	defer wg.Wait()
	for i := range a { // want `parallel sections of 1 goroutine start\(s\), joined at line 157`
		wg.Go(func() { a[i] = i })
	}
	n = len(a)
	return
}
