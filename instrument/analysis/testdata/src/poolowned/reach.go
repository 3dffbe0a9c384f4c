package poolowned

import "sync"

// reachItems (soundfuzz pool/shared): a[w] is worker w's, but a worker
// that takes no item never writes it, and the items read a[it]: in a run
// where one worker takes both items, nothing meets. Still checked, noted.
func reachItems() []int { // want reachItems:`synchronizes: communicates by channel`
	a := make([]int, 4)
	items := make(chan int, 2)
	for k := range 2 {
		items <- k
	}
	close(items)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ { // want `worker pool of 1 goroutine start\(s\), joined at line \d+`
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := 0
			for it := range items { // want `items: read\-only: nothing writes items while the construct runs`
				t += a[it] // want `a\[it\]: checked: not ` `a: read\-only: nothing writes a while the construct runs`
				a[w] += 1  // want `a\[w\]: checked: in the worker's own block: no other worker computes its address` `a: read\-only: nothing writes a while the construct runs` `w: private: no other goroutine writes w` `worker pool: a\[w\] is checked in the worker's own block, which only a worker that takes an item reaches, and the pool also reaches a as a\[it\]: their conflicts are seen only in runs where another worker takes the item that meets the element`
			}
			_ = t
		}()
	}
	wg.Wait()
	return a
}

// reachCovered: every worker writes a[w] before its items, whatever items
// it takes: the items' a[w] adds nothing a[it] could miss. No note.
func reachCovered() []int { // want reachCovered:`synchronizes: communicates by channel`
	a := make([]int, 4)
	items := make(chan int, 2)
	for k := range 2 {
		items <- k
	}
	close(items)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ { // want `worker pool of 1 goroutine start\(s\), joined at line \d+`
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := 0
			a[w] = 0                // want `a\[w\]: checked: ` `a: read\-only: nothing writes a while the construct runs` `w: private: no other goroutine writes w`
			for it := range items { // want `items: read\-only: nothing writes items while the construct runs`
				t += a[it] // want `a\[it\]: checked: not ` `a: read\-only: nothing writes a while the construct runs`
				a[w] += 1  // want `a\[w\]: checked: in the worker's own block: no other worker computes its address` `a: read\-only: nothing writes a while the construct runs` `w: private: no other goroutine writes w`
			}
			_ = t
		}()
	}
	wg.Wait()
	return a
}

// reachReads: the items only read a, by the worker's index and by the
// item: nothing conflicts. No note.
func reachReads() int { // want reachReads:`synchronizes: communicates by channel`
	a := make([]int, 4)
	items := make(chan int, 2)
	for k := range 2 {
		items <- k
	}
	close(items)
	var mu sync.Mutex
	total := 0
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ { // want `worker pool of 1 goroutine start\(s\), joined at line \d+`
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := 0
			for it := range items { // want `items: read\-only: nothing writes items while the construct runs`
				t += a[it] + a[w] // want `a\[it\]: checked: not ` `a\[w\]: checked: in the worker's own block: no other worker computes its address` `a: read\-only: nothing writes a while the construct runs` `a: read\-only: nothing writes a while the construct runs` `w: private: no other goroutine writes w`
			}
			mu.Lock()
			total += t // want `total: checked: shared variable`
			mu.Unlock()
		}()
	}
	wg.Wait()
	return total
}
