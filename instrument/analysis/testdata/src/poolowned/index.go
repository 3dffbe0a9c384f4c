// Package poolowned holds worker pools whose workers keep state of their
// own, and the pools whose state must stay per item.
package poolowned

import "sync"

// byIndex: each worker adds into its own element, partial[w].
func byIndex() []int { // want byIndex:`synchronizes: communicates by channel`
	const P = 3
	jobs := make(chan int, 50)
	for i := range 50 {
		jobs <- i
	}
	close(jobs)
	partial := make([]int, P)
	var wg sync.WaitGroup
	for w := 0; w < P; w++ { // want `worker pool of 1 goroutine start\(s\), joined at line \d+`
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range jobs { // want `jobs: read\-only: nothing writes jobs while the construct runs`
				partial[w] += it // want `partial\[w\]: checked: in the worker's own block: no other worker computes its address` `partial: read\-only: nothing writes partial while the construct runs` `w: private: no other goroutine writes w`
			}
		}()
	}
	wg.Wait()
	return partial
}

// byParam: the index reaches the worker as a parameter, in an affine form.
func byParam() []int { // want byParam:`synchronizes: communicates by channel`
	const P = 3
	jobs := make(chan int, 50)
	for i := range 50 {
		jobs <- i
	}
	close(jobs)
	sums := make([]int, 2*P+1)
	var wg sync.WaitGroup
	for w := range P { // want `worker pool of 1 goroutine start\(s\), joined at line \d+`
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			sums[2*id+1] = 0       // want `sums\[2 \* id \+ 1\]: checked: not ` `sums: read\-only: nothing writes sums while the construct runs`
			for it := range jobs { // want `jobs: read\-only: nothing writes jobs while the construct runs`
				sums[2*id+1] += it // want `sums\[2 \* id \+ 1\]: checked: in the worker's own block: no other worker computes its address` `sums: read\-only: nothing writes sums while the construct runs`
			}
		}(w)
	}
	wg.Wait()
	return sums
}

// twoForms: partial[w+1] of worker w is partial[w] of worker w+1.
func twoForms() []int { // want twoForms:`synchronizes: communicates by channel`
	const P = 3
	jobs := make(chan int, 50)
	for i := range 50 {
		jobs <- i
	}
	close(jobs)
	partial := make([]int, P+1)
	var wg sync.WaitGroup
	for w := range P { // want `worker pool of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for it := range jobs { // want `jobs: read\-only: nothing writes jobs while the construct runs`
				partial[w] += it // want `partial\[w\]: checked: not ` `partial: read\-only: nothing writes partial while the construct runs` `w: private: no other goroutine writes w`
				partial[w+1]--   // want `partial\[w \+ 1\]: checked: not ` `partial: read\-only: nothing writes partial while the construct runs` `w: private: no other goroutine writes w`
			}
		})
	}
	wg.Wait()
	return partial
}

// itemToo: the items also write partial by the item: partial[w] is the
// worker's, partial[it%P] the item's, and the two conflict at run time.
func itemToo() []int { // want itemToo:`synchronizes: communicates by channel`
	const P = 3
	jobs := make(chan int, 50)
	for i := range 50 {
		jobs <- i
	}
	close(jobs)
	partial := make([]int, P)
	var wg sync.WaitGroup
	for w := range P { // want `worker pool of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for it := range jobs { // want `jobs: read\-only: nothing writes jobs while the construct runs`
				partial[w] += it // want `partial\[w\]: checked: in the worker's own block: no other worker computes its address` `partial: read\-only: nothing writes partial while the construct runs` `w: private: no other goroutine writes w` `worker pool: partial\[w\] is checked in the worker's own block, which only a worker that takes an item reaches, and the pool also reaches partial as partial\[it % P\]: their conflicts are seen only in runs where another worker takes the item that meets the element`
				partial[it%P]++  // want `partial\[it % P\]: checked: not ` `partial: read\-only: nothing writes partial while the construct runs`
			}
		})
	}
	wg.Wait()
	return partial
}

// reassigned: a worker may move partial, so two workers may meet.
func reassigned() []int { // want reassigned:`synchronizes: communicates by channel`
	const P = 3
	jobs := make(chan int, 50)
	for i := range 50 {
		jobs <- i
	}
	close(jobs)
	partial := make([]int, P+1)
	var wg sync.WaitGroup
	for w := range P { // want `worker pool of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for it := range jobs { // want `jobs: read\-only: nothing writes jobs while the construct runs`
				partial[w] += it // want `partial\[w\]: checked: not ` `partial: checked: shared variable` `w: private: no other goroutine writes w`
			}
			if w == 0 { // want `w: private: no other goroutine writes w`
				partial = partial[1:] // want `partial: checked: shared variable` `partial: checked: shared variable`
			}
		})
	}
	wg.Wait()
	return partial
}

// spread starts goroutines: called from an item, their blocks would follow
// the item, not the worker's block.
func spread(a []int, k int) {
	var wg sync.WaitGroup
	for j := range 2 { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			a[k] += j // want `a\[k\]: checked: not proven` `a: read-only: ` `k: read-only: ` `j: private: `
		})
	}
	wg.Wait()
}

// forkingCallee: the items start goroutines through spread, so partial[w]
// stays the item's.
func forkingCallee() []int { // want forkingCallee:`synchronizes: communicates by channel`
	const P = 3
	jobs := make(chan int, 50)
	for i := range 50 {
		jobs <- i
	}
	close(jobs)
	partial := make([]int, P)
	var wg sync.WaitGroup
	for w := range P { // want `worker pool of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for it := range jobs { // want `jobs: read-only: `
				partial[w] += it   // want `partial\[w\]: checked: not ` `partial: read-only: ` `w: private: `
				spread(partial, w) // want `partial: read-only: ` `w: private: `
			}
		})
	}
	wg.Wait()
	return partial
}

func add(s []int, k, v int) { s[k] += v }

func addNext(s []int, k, v int) { s[k+1] += v }

func mix(b, s []int, k int) { s[k] += b[0] }

var hits int

func addCounted(s []int, k, v int) {
	s[k] += v
	hits++
}

// helpers: add, called from the items with the worker's index, only
// touches partial[id]: the call is the worker's. addNext's partial[w+1]
// spoils other, and addCounted writes a global: they stay the item's.
func helpers() ([]int, []int, []int) { // want helpers:`synchronizes: communicates by channel`
	const P = 3
	jobs := make(chan int, 50)
	for i := range 50 {
		jobs <- i
	}
	close(jobs)
	partial := make([]int, P)
	other := make([]int, P+1)
	third := make([]int, P)
	var wg sync.WaitGroup
	for w := range P { // want `worker pool of 1 goroutine start\(s\), joined at line \d+`
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			buf := []int{1}
			for it := range jobs { // want `jobs: read-only: `
				mix(buf, partial, id)     // want `mix\(buf, partial, id\): checked: in the worker's own block: the callee indexes only the worker's objects or by the worker's index` `partial: read-only: `
				add(partial, id, it)      // want `add\(partial, id, it\): checked: in the worker's own block: the callee indexes only the worker's objects or by the worker's index` `partial: read-only: `
				add(other, id, it)        // want `other: read-only: `
				addNext(other, id, it)    // want `other: read-only: `
				addCounted(third, id, it) // want `third: read-only: `
			}
		}(w)
	}
	wg.Wait()
	return partial, other, third
}
