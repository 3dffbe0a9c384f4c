// Package falses has correct programs that were once reported as racy.
// handoff: a mutex handed over between siblings orders them; the
// construct is noted and not checked.
package falses

import "sync"

func handoff() int {
	var mu sync.Mutex
	data := make([]int, 1)
	got := 0
	mu.Lock()
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() { // want `releases a lock it did not take \(mu.Unlock\): another goroutine hands it over — not checked`
			defer wg.Done()
			if i == 0 {
				data[0] = 42
				mu.Unlock()
			} else {
				mu.Lock()
				got = data[0]
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return got
}

type gate struct{ mu sync.Mutex }

func (g *gate) open() { g.mu.Unlock() } // want open:`synchronizes: releases a lock it did not take \(g.mu.Unlock\)`

func viaMethod() int { // want viaMethod:`synchronizes: calls open, which releases a lock it did not take`
	var g gate
	data := make([]int, 1)
	got := 0
	g.mu.Lock()
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() { // want `the goroutines synchronize through open, which releases a lock it did not take \(g.mu.Unlock\)`
			if i == 0 {
				data[0] = 7
				g.open()
			} else {
				g.mu.Lock()
				got = data[0]
				g.mu.Unlock()
			}
		})
	}
	wg.Wait()
	return got
}

// lockedInBranch: the lock taken in one branch does not excuse the
// release in the other.
func lockedInBranch(a []int) { // want lockedInBranch:`synchronizes: releases a lock it did not take \(mu.Unlock\)`
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range a {
		wg.Go(func() { // want `releases a lock it did not take \(mu.Unlock\): another goroutine hands it over — not checked`
			if i%2 == 0 {
				mu.Lock()
				a[0]++
			} else {
				a[0]--
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}

// ownLock: each goroutine takes and releases the lock itself: checked.
func ownLock(a []int) int {
	var mu sync.Mutex
	count := 0
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 89`
		wg.Go(func() {
			mu.Lock()
			defer mu.Unlock()
			count += a[i] // want `count: checked: shared variable` `a\[i\]: checked: not proven` `a: read-only: nothing writes a while the construct runs` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
	return count
}

// viaLocker: the hand-over through a sync.Locker.
func viaLocker(l sync.Locker, a []int) {
	l.Lock()
	var wg sync.WaitGroup
	for i := range a {
		wg.Go(func() { // want `releases a lock it did not take \(l.Unlock\): another goroutine hands it over — not checked`
			if i == 0 {
				a[1] = 1
				l.Unlock()
			} else {
				l.Lock()
				a[0] = a[1]
				l.Unlock()
			}
		})
	}
	wg.Wait()
}
