package constructs

import "sync"

func loop(a []int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 14`
		wg.Add(1)
		go func() {
			defer wg.Done()
			a[i]++
		}()
	}
	wg.Wait()
}

func sections(x, y *int) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); *x = 1 }() // want `parallel sections of 2 goroutine start\(s\), joined at line 22`
	go func() { defer wg.Done(); *y = 2 }()
	wg.Wait()
}

func joinChan(a []int) {
	done := make(chan struct{})
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 33`
		go func() {
			a[i] = i
			done <- struct{}{}
		}()
	}
	for range a {
		<-done
	}
}

func unjoined(a []int) {
	go func() { a[0] = 1 }() // want `goroutine is never joined \(it signals no WaitGroup, errgroup or join channel\) — not checked`
}

func neverWaited(a []int) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); a[0] = 1 }() // want `goroutine is never joined in the block that starts it`
}

func talks(a []int) { // want talks:`synchronizes: communicates by channel`
	var wg sync.WaitGroup
	ch := make(chan int)
	for i := range a {
		wg.Add(1)
		go func() { // want `goroutines of the construct communicate by channel — not checked`
			defer wg.Done()
			ch <- a[i]
		}()
	}
	wg.Wait()
}

func cond(a []int, c *sync.Cond) { // want cond:`synchronizes: uses sync.Cond`
	var wg sync.WaitGroup
	for i := range a {
		wg.Add(1)
		go func() { // want `uses sync.Cond — not checked`
			defer wg.Done()
			c.Wait()
			a[i] = 0
		}()
	}
	wg.Wait()
}

func pool(jobs chan int, out []int) { // want pool:`synchronizes: closes a channel while the goroutines run`
	close(jobs)
	var wg sync.WaitGroup
	for range 4 { // want `worker pool of 1 goroutine start\(s\), joined at line 86`
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				out[j] = j
			}
		}()
	}
	wg.Wait()
}

func openPool(jobs chan int, out []int) { // want openPool:`synchronizes: communicates by channel`
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() { // want `workers receive from a channel that is not filled and closed before the construct — not checked`
			defer wg.Done()
			for j := range jobs {
				out[j] = j
			}
		}()
	}
	wg.Wait()
}

func named(a []int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 109`
		wg.Add(1)
		go work(a, i, &wg)
	}
	wg.Wait()
}

func work(a []int, i int, wg *sync.WaitGroup) {
	defer wg.Done()
	a[i] = i
}

func wgGo(a []int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 122`
		wg.Go(func() { a[i] = i })
	}
	wg.Wait()
}

func colours(byColour [][]int, out []int) {
	for _, elems := range byColour {
		var wg sync.WaitGroup
		for _, e := range elems { // want `parallel loop of 1 goroutine start\(s\), joined at line 131`
			wg.Go(func() { out[e]++ })
		}
		wg.Wait()
	}
}

func conditional(a []int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 143`
		if a[i] > 0 {
			wg.Add(1)
			go func() { defer wg.Done(); a[i] = 0 }()
		}
	}
	wg.Wait()
}

type sem struct{ ch chan struct{} }

func (s *sem) acquire() { s.ch <- struct{}{} } // want acquire:`synchronizes: communicates by channel`
func (s *sem) release() { <-s.ch }             // want release:`synchronizes: communicates by channel`

func throughCallee(s *sem, a []int) { // want throughCallee:`synchronizes: calls acquire, which communicates by channel`
	var wg sync.WaitGroup
	for i := range a {
		wg.Add(1)
		go func() { // want `the goroutines synchronize through acquire, which communicates by channel — not checked`
			defer wg.Done()
			s.acquire()
			a[i]++
			s.release()
		}()
	}
	wg.Wait()
}

func nestedJoinChanCallee(a [][]int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 170`
		wg.Go(func() { rowByChan(a[i]) })
	}
	wg.Wait()
}

func rowByChan(r []int) {
	done := make(chan bool)
	for j := range r { // want `parallel loop of 1 goroutine start\(s\), joined at line 178`
		go func() { r[j] = j; done <- true }()
	}
	for range r {
		<-done
	}
}

func results(xs []int) []int {
	out := make([]int, len(xs))
	sq := make([]int, 2*len(xs)+1)
	var wg sync.WaitGroup
	for i := range xs { // want `parallel loop of 1 goroutine start\(s\), joined at line 194` `independent: each iteration writes and reads its own element of out — not checked` `independent: each iteration writes and reads its own element of sq — not checked`
		wg.Go(func() {
			out[i] = xs[i] * xs[i]
			out[i] += 1
			sq[2*i+1] = out[i]
		})
	}
	wg.Wait()
	return out
}

func notIndependent(xs []int) []int {
	out := make([]int, len(xs)+1)
	alias := out[1:]
	shared := make([]int, len(xs))
	var wg sync.WaitGroup
	for i := range xs { // want `parallel loop of 1 goroutine start\(s\), joined at line 211`
		wg.Go(func() {
			out[i] = 1    // out is aliased before the construct
			alias[i] = 2  // alias is not made here
			shared[i] = 1 // shared is read at another subscript too
			_ = shared[0]
		})
	}
	wg.Wait()
	return out
}

func shifted(n int) []int {
	a := make([]int, n+1)
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line 223`
		wg.Go(func() {
			a[i+1] = a[i] + 1 // want `definite conflict: write of a\[i \+ 1\] in iteration i and read of a\[i\] at line 220 in iteration i\+1 touch the same element \(when the loop runs more than 1 iterations\)`
		})
	}
	wg.Wait()
	return a
}

func strided(n int) []int {
	a := make([]int, 2*n+2)
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line 235`
		wg.Go(func() {
			a[2*i] = a[2*i+1] // odd and even elements never meet: no conflict, not independent either
		})
	}
	wg.Wait()
	return a
}

type tally struct {
	mu         sync.Mutex
	sum, count int
}

func locking(xs []int) int {
	var t tally
	var wg sync.WaitGroup
	for i := range xs { // want `parallel loop of 1 goroutine start\(s\), joined at line 258`
		wg.Go(func() {
			t.mu.Lock()
			t.sum += xs[i]
			t.count++
			t.mu.Unlock()
			if t.count > 2 { // want `inconsistent locking: t.count is written holding t.mu at line 251 but read without it here`
				return
			}
		})
	}
	wg.Wait()
	return t.sum
}

func consistent(xs []int) int {
	var mu sync.Mutex
	sum := 0
	var wg sync.WaitGroup
	for i := range xs { // want `parallel loop of 1 goroutine start\(s\), joined at line 273`
		wg.Go(func() {
			mu.Lock()
			defer mu.Unlock()
			sum += xs[i]
		})
	}
	wg.Wait()
	return sum
}

// bare holds its loop in a bare block: a construct as any other (the
// finder skipped a bare block's own list, and noted the goroutines never
// joined).
func bare(a []int) {
	{
		var wg sync.WaitGroup
		for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
			wg.Add(1)
			go func() {
				defer wg.Done()
				a[i]++
			}()
		}
		wg.Wait()
	}
}
