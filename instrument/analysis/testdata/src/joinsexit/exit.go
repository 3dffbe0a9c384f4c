// Package joinsexit has constructs that control can leave between the
// forks and the join, or enter past their start: their goroutines outlive
// the construct, so each is noted and not checked. The last functions keep
// their jumps inside the construct and stay constructs.
package joinsexit

import (
	"runtime"
	"sync"
)

func earlyReturn(a []int, stop bool) {
	var wg sync.WaitGroup
	for i := range a {
		wg.Add(1)
		go func() { // want `a return leaves the construct before its join; the goroutines outlive it — not checked`
			defer wg.Done()
			a[i]++
		}()
	}
	if stop {
		return
	}
	wg.Wait()
}

func returnInLoop(a []int) {
	var wg sync.WaitGroup
	for i := range a {
		if a[i] < 0 {
			return
		}
		wg.Go(func() { a[i]++ }) // want `a return leaves the construct before its join`
	}
	wg.Wait()
}

func continueOuter(a []int) {
	var wg sync.WaitGroup
	for r := range 2 {
		wg.Add(1)
		go func() { // want `a continue leaves the construct before its join`
			defer wg.Done()
			a[0] += r
		}()
		if r == 0 {
			continue
		}
		wg.Wait()
	}
}

func breakOuter(a []int) {
	var wg sync.WaitGroup
	for {
		wg.Add(1)
		go func() { // want `a break leaves the construct before its join`
			defer wg.Done()
			a[0]++
		}()
		if a[1] > 0 {
			break
		}
		wg.Wait()
	}
}

func labelledBreak(a []int) {
	var wg sync.WaitGroup
outer:
	for r := range 3 {
		for i := range a {
			if i == r {
				break outer
			}
			wg.Go(func() { a[i]++ }) // want `a break leaves the construct before its join`
		}
		wg.Wait()
	}
}

func gotoOut(a []int) {
	var wg sync.WaitGroup
	for i := range a {
		wg.Go(func() { a[i]++ }) // want `a goto leaves the construct before its join`
	}
	if len(a) > 3 {
		goto done
	}
	wg.Wait()
done:
}

func gotoIn(a []int, skip bool) {
	var wg sync.WaitGroup
	wg.Add(2)
	if skip {
		goto second
	}
	go func() { defer wg.Done(); a[0]++ }() // want `a goto from outside enters the construct past its start`
second:
	go func() { defer wg.Done(); a[1]++ }() // want `a goto from outside enters the construct past its start`
	wg.Wait()
}

func goexit(a []int) { // want goexit:"ends the goroutine: calls runtime.Goexit"
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); a[0]++ }() // want `runtime.Goexit ends the parent before the join`
	if a[1] > 0 {
		runtime.Goexit()
	}
	wg.Wait()
}

func throughHelper(a []int, stop bool) { // want throughHelper:`synchronizes: communicates by channel`
	done := make(chan struct{})
	for i := range a {
		go func() { // want `a return leaves the construct before its join`
			a[i]++
			done <- struct{}{}
		}()
		if stop {
			return
		}
	}
	for range a {
		<-done
	}
}

// Jumps that stay inside the construct leave it structured.

func breakOwnLoop(a []int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 146`
		if a[i] < 0 {
			break
		}
		switch {
		case i > 4:
			continue
		}
		wg.Go(func() { a[i]++ })
	}
	wg.Wait()
}

func labelledInside(a []int) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); a[0]++ }() // want `parallel sections of 2 goroutine start\(s\), joined at line 159`
	if a[2] > 0 {
		goto second
	}
	a[3] = 1
second:
	go func() { defer wg.Done(); a[1]++ }()
	wg.Wait()
}

func returnInGoroutine(a []int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 172`
		wg.Go(func() {
			if a[i] < 0 {
				return
			}
			a[i]++
		})
	}
	wg.Wait()
}

func returnAfterJoin(a []int) bool {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 180`
		wg.Go(func() { a[i]++ })
	}
	wg.Wait()
	if a[0] > 0 {
		return true
	}
	return false
}

// A deferred Wait at the top of the body joins at the function's end
// (deferwait.go; formsdefer has the variants).
func deferredWait(a []int) {
	var wg sync.WaitGroup
	defer wg.Wait()
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() { a[i]++ })
	}
}
