// Package nestchan has outer constructs whose goroutines run an inner
// construct joined by a join channel. A channel made in the function that
// runs the inner construct and used only as its join is no communication
// between the outer goroutines: both levels are constructs, and the
// function exports no "synchronizes" fact. A channel declared outside,
// or used for anything else, still makes the outer construct unstructured.
package nestchan

import "sync"

func direct(a [][]int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 27`
		wg.Go(func() {
			done := make(chan struct{})
			for j := range a[i] { // want `parallel loop of 1 goroutine start\(s\), joined at line 22`
				go func() {
					a[i][j]++
					done <- struct{}{}
				}()
			}
			for range len(a[i]) {
				<-done
			}
		})
	}
	wg.Wait()
}

// Both levels joined by channel.
func bothChan(a [][]int) {
	outer := make(chan bool)
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 48`
		go func() {
			var done = make(chan int, len(a[i]))
			for j := range a[i] { // want `parallel loop of 1 goroutine start\(s\), joined at line 42`
				go func() {
					a[i][j]++
					done <- j
				}()
			}
			for k := 0; k < len(a[i]); k++ {
				<-done
			}
			outer <- true
		}()
	}
	for range a {
		<-outer
	}
}

var global = make(chan struct{})

func outside(a [][]int) { // want outside:`synchronizes: communicates by channel`
	var wg sync.WaitGroup
	done := make(chan struct{})
	for i := range a {
		wg.Go(func() { // want `goroutines of the construct communicate by channel — not checked`
			for j := range a[i] {
				go func() { // want `joined by channel done, which this function does not make: constructs running at once may take each other's sends — not checked`
					a[i][j]++
					done <- struct{}{}
				}()
			}
			for range len(a[i]) {
				<-done
			}
		})
	}
	wg.Wait()
}

func escapes(a [][]int, chans []chan struct{}) { // want escapes:`synchronizes: communicates by channel`
	var wg sync.WaitGroup
	for i := range a {
		wg.Go(func() { // want `goroutines of the construct communicate by channel — not checked`
			done := make(chan struct{})
			chans[i] = done
			for j := range a[i] { // want `parallel loop of 1 goroutine start\(s\), joined at line 86`
				go func() {
					a[i][j]++
					done <- struct{}{}
				}()
			}
			for range len(a[i]) {
				<-done
			}
		})
	}
	wg.Wait()
}

func reassigned(a [][]int) { // want reassigned:`synchronizes: communicates by channel`
	var wg sync.WaitGroup
	for i := range a {
		wg.Go(func() { // want `goroutines of the construct communicate by channel — not checked`
			done := make(chan struct{})
			if i == 0 {
				done = global
			}
			for j := range a[i] { // want `parallel loop of 1 goroutine start\(s\), joined at line 108`
				go func() {
					a[i][j]++
					done <- struct{}{}
				}()
			}
			for range len(a[i]) {
				<-done
			}
		})
	}
	wg.Wait()
}

// A named function's final send is on its parameter: the channel is
// passed, and the outer construct is not checked.
func worker(r []int, j int, done chan struct{}) {
	r[j]++
	done <- struct{}{}
}

func named(a [][]int) { // want named:`synchronizes: communicates by channel`
	var wg sync.WaitGroup
	for i := range a {
		wg.Go(func() { // want `goroutines of the construct communicate by channel — not checked`
			done := make(chan struct{})
			for j := range a[i] { // want `parallel loop of 1 goroutine start\(s\), joined at line 131`
				go worker(a[i], j, done)
			}
			for range len(a[i]) {
				<-done
			}
		})
	}
	wg.Wait()
}

func innerWG(a [][]int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 154`
		wg.Go(func() {
			var inner sync.WaitGroup
			for j := range a[i] { // want `parallel loop of 1 goroutine start\(s\), joined at line 151`
				inner.Add(1)
				go func() {
					defer inner.Done()
					a[i][j]++
				}()
			}
			inner.Wait()
		})
	}
	wg.Wait()
}

// The callee case: row's construct joins on a channel of its own, so row
// does not synchronize its callers; rowGlobal's channel is shared by every
// call, so it does.
func row(r []int) {
	done := make(chan struct{})
	for j := range r { // want `parallel loop of 1 goroutine start\(s\), joined at line 168`
		go func() {
			r[j]++
			done <- struct{}{}
		}()
	}
	for range len(r) {
		<-done
	}
}

func callee(a [][]int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 178`
		wg.Go(func() { row(a[i]) })
	}
	wg.Wait()
}

func rowGlobal(r []int) { // want rowGlobal:`synchronizes: communicates by channel`
	for j := range r {
		go func() { // want `joined by channel global, which this function does not make: constructs running at once may take each other's sends — not checked`
			r[j]++
			global <- struct{}{}
		}()
	}
	for range len(r) {
		<-global
	}
}

func calleeGlobal(a [][]int) { // want calleeGlobal:`synchronizes: calls rowGlobal, which communicates by channel`
	var wg sync.WaitGroup
	for i := range a {
		wg.Go(func() { rowGlobal(a[i]) }) // want `the goroutines synchronize through rowGlobal, which communicates by channel — not checked`
	}
	wg.Wait()
}
