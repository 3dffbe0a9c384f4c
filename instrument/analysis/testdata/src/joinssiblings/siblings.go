// Package joinssiblings has constructs whose goroutines order each other:
// an atomic flag spun on, a CAS spin lock, a WaitGroup barrier, a poll of
// state under a mutex, a channel, sync.Cond and sync.Once. Each is noted
// and not checked. The last functions use a lock or an atomic only around
// the accesses, or wait for their own nested construct, and stay checked.
package joinssiblings

import (
	"runtime"
	"sync"
	"sync/atomic"
)

func atomicFlag() int { // want atomicFlag:`synchronizes: an atomic value steers`
	var ready atomic.Bool
	data := 0
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // want `an atomic value steers the goroutines' control flow \(ready.Load\(\)\) — not checked`
		defer wg.Done()
		data = 42
		ready.Store(true)
	}()
	go func() { // want `an atomic value steers the goroutines' control flow \(ready.Load\(\)\) — not checked`
		defer wg.Done()
		for !ready.Load() {
		}
		data++
	}()
	wg.Wait()
	return data
}

func atomicFunc(a []int) { // want atomicFunc:`synchronizes: an atomic value steers`
	var flag int32
	var wg sync.WaitGroup
	for i := range a {
		wg.Go(func() { // want `an atomic value steers the goroutines' control flow \(atomic.LoadInt32\(&flag\)\)`
			if i == 0 {
				a[0] = 1
				atomic.StoreInt32(&flag, 1)
				return
			}
			for atomic.LoadInt32(&flag) == 0 {
				runtime.Gosched()
			}
			a[i] = a[0]
		})
	}
	wg.Wait()
}

func atomicViaLocal(a []int) { // want atomicViaLocal:`synchronizes: an atomic value steers`
	var turn atomic.Int64
	var wg sync.WaitGroup
	for i := range a {
		wg.Go(func() { // want `an atomic value steers the goroutines' control flow \(turn.Load\(\)\)`
			for {
				t := turn.Load()
				if int(t) == i {
					break
				}
			}
			a[0] += i
			turn.Add(1)
		})
	}
	wg.Wait()
}

func casSpinLock(a []int) { // want casSpinLock:`synchronizes: an atomic value steers`
	var l int32
	var wg sync.WaitGroup
	for i := range a {
		wg.Go(func() { // want `an atomic value steers the goroutines' control flow \(atomic.CompareAndSwapInt32\(&l, 0, 1\)\)`
			for !atomic.CompareAndSwapInt32(&l, 0, 1) {
			}
			a[0] += a[i]
			atomic.StoreInt32(&l, 0)
		})
	}
	wg.Wait()
}

func barrier(a []int) {
	var wg, bar sync.WaitGroup
	bar.Add(len(a))
	for i := range a {
		wg.Add(1)
		go func() { // want `waits on a WaitGroup its siblings signal \(bar.Wait\): a barrier between the goroutines`
			defer wg.Done()
			a[i] = i
			bar.Done()
			bar.Wait()
			_ = a[(i+1)%len(a)]
		}()
	}
	wg.Wait()
}

func batches(a []int) {
	var wg sync.WaitGroup
	for i := range a {
		wg.Add(1)
		go func() { // want `waits on a WaitGroup its siblings signal \(wg.Wait\)`
			defer wg.Done()
			a[i%4]++
		}()
		if i%4 == 3 {
			wg.Wait()
		}
	}
	wg.Wait()
}

func mutexBusyWait() int { // want mutexBusyWait:`synchronizes: state read under a lock steers`
	var mu sync.Mutex
	done := false
	data := 0
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // want `state read under a lock steers the goroutines' control flow \(d\)`
		defer wg.Done()
		data = 1
		mu.Lock()
		done = true
		mu.Unlock()
	}()
	go func() { // want `state read under a lock steers the goroutines' control flow \(d\)`
		defer wg.Done()
		for {
			mu.Lock()
			d := done
			mu.Unlock()
			if d {
				break
			}
		}
		data++
	}()
	wg.Wait()
	return data
}

func mutexPoll() int { // want mutexPoll:`synchronizes: a loop or branch on state read under mu leaves the critical section`
	var mu sync.Mutex
	done := false
	data := 0
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // want `a loop or branch on state read under mu leaves the critical section: the goroutines poll each other`
		defer wg.Done()
		data = 1
		mu.Lock()
		done = true
		mu.Unlock()
	}()
	go func() { // want `a loop or branch on state read under mu leaves the critical section`
		defer wg.Done()
		for {
			mu.Lock()
			if done {
				mu.Unlock()
				break
			}
			mu.Unlock()
		}
		data++
	}()
	wg.Wait()
	return data
}

func channel(a []int) { // want channel:`synchronizes: communicates by channel`
	ch := make(chan int, 1)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); a[0] = 1; ch <- 1 }() // want `goroutines of the construct communicate by channel`
	go func() { defer wg.Done(); <-ch; a[0]++ }()      // want `goroutines of the construct communicate by channel`
	wg.Wait()
}

func cond(a []int) { // want cond:`synchronizes: uses sync.Cond`
	c := sync.NewCond(&sync.Mutex{})
	var wg sync.WaitGroup
	for i := range a {
		wg.Go(func() { // want `uses sync.Cond`
			c.L.Lock()
			a[i]++
			c.Broadcast()
			c.L.Unlock()
		})
	}
	wg.Wait()
}

func once(a []int) { // want once:`synchronizes: uses sync.Once`
	var o sync.Once
	var wg sync.WaitGroup
	for i := range a {
		wg.Go(func() { // want `uses sync.Once`
			o.Do(func() { a[0] = 1 })
			a[i] += a[0]
		})
	}
	wg.Wait()
}

// A lock around the conflicting accesses, even with a branch inside the
// critical section, is not coordination: checked (NONDETERMINISM).

func lockAround(a []int) int {
	var mu sync.Mutex
	sum, max := 0, 0
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 226`
		wg.Go(func() {
			mu.Lock()
			sum += a[i]
			if a[i] > max {
				max = a[i]
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	return sum + max
}

func atomicCounters(a []int32) int64 { // want atomicCounters:`returns an atomic value`
	var n atomic.Int64
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 239`
		wg.Go(func() {
			n.Add(int64(a[i]))
			atomic.StoreInt32(&a[i], 0)
		})
	}
	wg.Wait()
	return n.Load()
}

func ownNested(a [][]int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 254`
		wg.Go(func() {
			var inner sync.WaitGroup
			for j := range a[i] { // want `parallel loop of 1 goroutine start\(s\), joined at line 251`
				inner.Go(func() { a[i][j]++ })
			}
			inner.Wait()
		})
	}
	wg.Wait()
}

// The parent polls, between its forks, a flag the first goroutine sets
// under a lock, then forks a goroutine that reads what the first wrote.
// The first goroutine is noted; the second alone, after the poll, is a
// construct of its own (its sibling is not checked, so nothing of theirs
// is reported).
func parentPolls(a []int) {
	var mu sync.Mutex
	done := false
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // want `state read under a lock steers the goroutines' control flow \(d\)`
		defer wg.Done()
		a[0] = 1
		mu.Lock()
		done = true
		mu.Unlock()
	}()
	for {
		mu.Lock()
		d := done
		mu.Unlock()
		if d {
			break
		}
	}
	go func() { defer wg.Done(); a[0]++ }() // want `parallel sections of 1 goroutine start\(s\), joined at line 283`
	wg.Wait()
}

type cached struct{ vals []int }

// syncMapCache builds an entry on a miss and publishes it by LoadOrStore;
// a sibling that finds it reads what the builder wrote: ordered by the
// map, not by the block tags (review19).
func syncMapCache(keys []int) int { // want syncMapCache:`synchronizes: a sync.Map value steers`
	var m sync.Map
	sums := make([]int, len(keys))
	var wg sync.WaitGroup
	for i, k := range keys {
		wg.Go(func() { // want `a sync.Map value steers the goroutines' control flow \(m.Load\(k\)\) — not checked`
			v, ok := m.Load(k)
			if !ok {
				v, _ = m.LoadOrStore(k, &cached{vals: []int{k}})
			}
			sums[i] = v.(*cached).vals[0]
		})
	}
	wg.Wait()
	return sums[0]
}
