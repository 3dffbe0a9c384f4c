// Package subscriptnest holds constructs nested in the goroutines of
// others: a proof that the iterations of one inner loop own their
// elements says nothing of the inner loops of sibling outer iterations,
// which run at the same time. The slice must be one per instance of the
// inner construct (made in the goroutine that runs it), or stay checked.
package subscriptnest

import "sync"

// a is made outside the outer goroutines: every inner loop writes a[j].
func shared(n int) []int {
	a := make([]int, n)
	var outer sync.WaitGroup
	for i := range 3 { // want `parallel loop of 1 goroutine start\(s\), joined at line 25`
		outer.Go(func() {
			var inner sync.WaitGroup
			for j := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line 22` `n: read-only: nothing writes n while the construct runs`
				inner.Go(func() {
					a[j] += i // want `a\[j\]: checked: not proven` `a: read-only: nothing writes a while the construct runs` `j: private: no other goroutine writes j` `i: private: no other goroutine writes i`
				})
			}
			inner.Wait()
		})
	}
	outer.Wait()
	return a
}

// The same through go statements and other names.
func sharedGo(rows, cols int) []float64 {
	acc := make([]float64, cols)
	var wo sync.WaitGroup
	for r := 0; r < rows; r++ { // want `parallel loop of 1 goroutine start\(s\), joined at line 48`
		wo.Add(1)
		go func() {
			defer wo.Done()
			var wi sync.WaitGroup
			for c := 0; c < cols; c++ { // want `parallel loop of 1 goroutine start\(s\), joined at line 45` `cols: read-only: nothing writes cols while the construct runs`
				wi.Add(1)
				go func() {
					defer wi.Done()
					acc[c] = float64(r) // want `acc\[c\]: checked: not proven` `acc: read-only: nothing writes acc while the construct runs` `c: private: no other goroutine writes c` `r: private: no other goroutine writes r`
				}()
			}
			wi.Wait()
		}()
	}
	wo.Wait()
	return acc
}

// b is made by each outer goroutine: the inner loop's proof holds.
func fresh(n int) int {
	total := make([]int, 3)
	var outer sync.WaitGroup
	for i := range 3 { // want `parallel loop of 1 goroutine start\(s\), joined at line 69` `independent: each iteration writes and reads its own element of total — not checked`
		outer.Go(func() {
			b := make([]int, n) // want `n: read-only: nothing writes n while the construct runs`
			var inner sync.WaitGroup
			for j := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line 65` `independent: each iteration writes and reads its own element of b — not checked` `n: read-only: nothing writes n while the construct runs`
				inner.Go(func() {
					b[j] = i + j // want `b\[j\]: independent: each iteration touches its own elements of b` `b: read-only: nothing writes b while the construct runs` `j: private: no other goroutine writes j` `i: private: no other goroutine writes i` `j: private: no other goroutine writes j`
				})
			}
			inner.Wait()
			total[i] = b[n-1] // want `total\[i\]: independent: each iteration touches its own element of total` `total: read-only: nothing writes total while the construct runs` `i: private: no other goroutine writes i` `b\[n - 1\]: checked: not proven` `n: read-only: nothing writes n while the construct runs`
		})
	}
	outer.Wait()
	return total[2]
}

// A construct in a function literal that outer goroutines call: the
// literal's instances share the captured a.
func viaClosure(a []int) {
	run := func(k int) {
		var inner sync.WaitGroup
		for j := range len(a) { // want `parallel loop of 1 goroutine start\(s\), joined at line 83`
			inner.Go(func() {
				a[j] += k // want `a\[j\]: checked: not proven` `a: read-only: nothing writes a while the construct runs` `j: private: no other goroutine writes j` `k: read-only: nothing writes k while the construct runs`
			})
		}
		inner.Wait()
	}
	var outer sync.WaitGroup
	for i := range 3 { // want `parallel loop of 1 goroutine start\(s\), joined at line 89`
		outer.Go(func() { run(i) }) // want `run: read-only: nothing writes run while the construct runs` `i: private: no other goroutine writes i`
	}
	outer.Wait()
}
