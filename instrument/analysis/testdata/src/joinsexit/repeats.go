package joinsexit

import "sync"

// A backward goto in a loop's body starts the goroutine twice in one
// iteration: a[i] is then written by two goroutines. The loop stays a
// construct (the run time takes a tag per start), but a is not proven
// independent: it is checked.
func gotoTwice(n int) []int {
	a := make([]int, n)
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line 25`
		k := 0
	again:
		wg.Add(1)
		go func() {
			defer wg.Done()
			a[i]++
		}()
		k++
		if k < 2 {
			goto again
		}
	}
	wg.Wait()
	return a
}

// A goto to the loop's own label restarts it: iteration 0 forks again.
func restart(n int) []int {
	a := make([]int, n)
	var wg sync.WaitGroup
	again := true
loop: // want `parallel loop of 1 goroutine start\(s\), joined at line 42`
	for i := range n {
		wg.Go(func() { a[i]++ })
		if i == n-1 && again {
			again = false
			goto loop
		}
	}
	wg.Wait()
	return a
}

// A forward goto skips the start in some iterations; it never repeats
// it, and a keeps its proof.
func forwardGoto(n int) []int {
	a := make([]int, n)
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line 58` `independent: each iteration writes and reads its own element of a`
		if i%2 == 0 {
			goto next
		}
		wg.Go(func() { a[i]++ })
	next:
	}
	wg.Wait()
	return a
}

// A worker pool whose start is repeated by a goto has two workers for one
// worker index.
func poolTwice(items chan int, part []int) { // want poolTwice:`synchronizes: closes a channel while the goroutines run`
	close(items)
	var wg sync.WaitGroup
	for w := range part {
		k := 0
	more:
		wg.Add(1)
		go func() { // want `a backward goto can start the worker more than once per iteration`
			defer wg.Done()
			for it := range items {
				part[w] += it
			}
		}()
		if k++; k < 2 {
			goto more
		}
	}
	wg.Wait()
}

// Sections repeated by a goto are each a goroutine with its own block:
// the run-time tags are taken as the goroutines start, and no proof
// assumes one start per statement.
func sectionsTwice(a []int) {
	var wg sync.WaitGroup
	k := 0
	wg.Add(1)
	go func() { defer wg.Done(); a[0]++ }() // want `parallel sections of 2 goroutine start\(s\), joined at line 98`
again:
	wg.Add(1)
	go func() { defer wg.Done(); a[1]++ }()
	if k++; k < 2 {
		goto again
	}
	wg.Wait()
}
