// Package producer fills worker pools' channels from producer goroutines
// (gonum's integrate/quad): a producer that only sends and closes is a
// section of the pool; the others are noted with the reason.
package producer

import (
	"runtime"
	"sync"
)

func first(out []float64, n int) {
	jobs := make(chan int)
	go func() { // want `worker pool of 2 goroutine start\(s\), joined at line 27`
		for i := range n {
			jobs <- i
		}
		close(jobs)
	}()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for i := range jobs {
				out[i] = float64(i) * 2
			}
		})
	}
	wg.Wait()
}

func middle(out []float64, n int) {
	jobs := make(chan int, 8)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ { // want `worker pool of 2 goroutine start\(s\), joined at line 48`
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				out[i] = float64(i)
			}
		}()
	}
	go func() {
		for i := 0; i < n; i++ {
			jobs <- i
		}
		close(jobs)
	}()
	wg.Wait()
}

func sections(out []float64, lo, hi int) {
	jobs := make(chan int)
	go func() { // want `worker pool of 3 goroutine start\(s\), joined at line 70`
		for i := range hi - lo {
			jobs <- lo + i
		}
		close(jobs)
	}()
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range jobs {
			out[i] = 1
		}
	})
	wg.Go(func() {
		for i := range jobs {
			out[i] = 2
		}
	})
	wg.Wait()
}

func fromMemory(out, xs []float64) { // want fromMemory:"synchronizes: communicates by channel"
	jobs := make(chan float64)
	go func() { // want `the producer goroutine computes its items from memory \(xs\[i\]\): each send orders what it did before the item that receives it, an order block tags cannot express`
		for i := range xs {
			jobs <- xs[i]
		}
		close(jobs)
	}()
	var wg sync.WaitGroup
	for range 4 { // want `worker pool of 1 goroutine start\(s\), joined at line 89`
		wg.Go(func() {
			for x := range jobs {
				out[0] += x
			}
		})
	}
	wg.Wait()
}

func writesBound(out []int, n int) { // want writesBound:"synchronizes: communicates by channel"
	jobs := make(chan int)
	go func() { // want `the producer goroutine reads n, which the construct may write`
		for i := range n {
			jobs <- i
		}
		close(jobs)
	}()
	var wg sync.WaitGroup
	for range 2 { // want `worker pool of 1 goroutine start\(s\)`
		wg.Go(func() {
			for i := range jobs {
				out[i] = i
				n = 0
			}
		})
	}
	wg.Wait()
}

func breaks(out []int, n int) { // want breaks:"synchronizes: communicates by channel"
	jobs := make(chan int)
	go func() { // want `a worker may leave its range before the pool's channel is closed`
		for i := range n {
			jobs <- i
		}
		close(jobs)
	}()
	var wg sync.WaitGroup
	for range 2 { // want `worker pool of 1 goroutine start\(s\)`
		wg.Go(func() {
			for i := range jobs {
				if i > 3 {
					break
				}
				out[i] = i
			}
		})
	}
	wg.Wait()
}

func noWorker(out []int, n, workers int) { // want noWorker:"synchronizes: communicates by channel"
	jobs := make(chan int, n)
	go func() { // want `the pool may start no worker, and then nothing waits for the producer goroutine`
		for i := range n {
			jobs <- i
		}
		close(jobs)
	}()
	var wg sync.WaitGroup
	for range workers { // want `worker pool of 1 goroutine start\(s\)`
		wg.Go(func() {
			for i := range jobs {
				out[i] = i
			}
		})
	}
	wg.Wait()
}

func pipeline(n int) int { // want pipeline:"synchronizes: communicates by channel"
	ch := make(chan int)
	go func() { // want `the goroutine feeds ch \(it sends and closes it\) and no worker pool of this block drains it: a pipeline`
		for i := range n {
			ch <- i
		}
		close(ch)
	}()
	sum := 0
	for v := range ch {
		sum += v
	}
	return sum
}

func shared(out []int, n int) { // want shared:"synchronizes: communicates by channel"
	jobs := make(chan int, 1)
	jobs <- -1
	go func() { // want `the producer goroutine fills jobs, which other code uses too`
		for i := range n {
			jobs <- i
		}
		close(jobs)
	}()
	var wg sync.WaitGroup
	for range 2 { // want `worker pool of 1 goroutine start\(s\)`
		wg.Go(func() {
			for i := range jobs {
				if i >= 0 {
					out[i] = i
				}
			}
		})
	}
	wg.Wait()
}

func closesEarly(out []int, n int, done chan int) { // want closesEarly:"synchronizes: closes a channel while the goroutines run"
	jobs := make(chan int)
	go func() { // want `the producer goroutine closes a channel before its last statement \(close\(done\)\)`
		for i := 0; i < n; close(done) {
			jobs <- i
		}
		close(jobs)
	}()
	var wg sync.WaitGroup
	for range 2 { // want `worker pool of 1 goroutine start\(s\)`
		wg.Go(func() {
			for i := range jobs {
				out[i] = i
			}
		})
	}
	wg.Wait()
}

func collector(n int) int { // want collector:"synchronizes: communicates by channel"
	out := make(chan int)
	go func() { // want `the producer goroutine fills out, but the goroutines after it are no construct`
		for i := range n {
			out <- i
		}
		close(out)
	}()
	var res []int
	var wg sync.WaitGroup
	wg.Go(func() { // want `the pool has one worker, whose items run one after another`
		for v := range out {
			res = append(res, v)
		}
	})
	wg.Wait()
	return len(res)
}
