// Package parentfeed fills worker pools' channels from the parent, between
// the workers' starts and the join (PolyBench's gesummv): sends in loops,
// then close, then the join, make the parent the pool's producer and the
// pool is checked; the variants that break the rule (parentfeed.go) are
// noted with the reason.
package parentfeed

import "sync"

// gesummv is the port's shape: an unbuffered channel, a worker count
// only the run time knows.
func gesummv(n, bs, workers int, tmp, y []float64) {
	blocks := make(chan int)
	var wg sync.WaitGroup
	for range workers { // want `worker pool of 1 goroutine start\(s\), joined at line 32`
		wg.Add(1)
		go func() {
			defer wg.Done()
			for lo := range blocks {
				hi := min(lo+bs, n)
				for i := lo; i < hi; i++ {
					tmp[i] = float64(i)
					y[i] = 2 * tmp[i]
				}
			}
		}()
	}
	for lo := 0; lo < n; lo += bs {
		blocks <- lo
	}
	close(blocks)
	wg.Wait()
}

// buffered feeds a buffered channel from nested loops and single sends,
// workers started by wg.Go.
func buffered(out []int, rows, cols int) {
	jobs := make(chan int, 16)
	var wg sync.WaitGroup
	for range 4 { // want `worker pool of 1 goroutine start\(s\), joined at line 54`
		wg.Go(func() {
			for k := range jobs {
				out[k] = k
			}
		})
	}
	jobs <- 0
	for r := range rows {
		for c := 1; c < cols; c++ {
			jobs <- r*cols + c
		}
	}
	close(jobs)
	wg.Wait()
}

// readsResult reads what an item wrote between two sends.
func readsResult(out []int, n int) int { // want readsResult:"synchronizes: communicates by channel"
	jobs := make(chan int)
	var wg sync.WaitGroup
	sum := 0
	for range 2 {
		wg.Add(1)
		go func() { // want `the parent fills jobs between the workers' starts and the join, but does more than send on it in loops and close it \(a range loop\): what it computes between two sends is ordered before the next item, an order block tags cannot express`
			defer wg.Done()
			for i := range jobs {
				out[i] = i
			}
		}()
	}
	for i := range n {
		jobs <- i
		sum += out[0]
	}
	close(jobs)
	wg.Wait()
	return sum
}

// sendsRead sends an element the items write.
func sendsRead(out []int, n int) { // want sendsRead:"synchronizes: communicates by channel"
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { // want `the parent computes its items from memory \(out\[i\]\): each send orders what it did before the item that receives it, an order block tags cannot express`
			defer wg.Done()
			for i := range jobs {
				out[i%n] = i
			}
		}()
	}
	for i := range n {
		jobs <- out[i]
	}
	close(jobs)
	wg.Wait()
}

// branch sends inside a branch on memory the items write.
func branch(done []bool, n int) { // want branch:"synchronizes: communicates by channel"
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { // want `the parent fills jobs between the workers' starts and the join, but does more than send on it in loops and close it \(a range loop\)`
			defer wg.Done()
			for i := range jobs {
				done[i] = true
			}
		}()
	}
	for i := range n {
		if !done[i] {
			jobs <- i
		}
	}
	close(jobs)
	wg.Wait()
}

// boundWritten loops to a bound the items write.
func boundWritten(out []int, n int) { // want boundWritten:"synchronizes: communicates by channel"
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { // want `the parent reads n, which the construct may write or which is not a local of the function`
			defer wg.Done()
			for i := range jobs {
				out[i] = i
				n = 0
			}
		}()
	}
	for i := 0; i < n; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}

// breaks leaves a worker's range early.
func breaks(out []int, n int) { // want breaks:"synchronizes: communicates by channel"
	jobs := make(chan int, n)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { // want `a worker may leave its range before the pool's channel is closed`
			defer wg.Done()
			for i := range jobs {
				if i > 3 {
					break
				}
				out[i] = i
			}
		}()
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}

// between does something else between its sends and the close.
func between(out []int, n int) { // want between:"synchronizes: communicates by channel"
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { // want `the parent fills jobs between the workers' starts and the join, but does more than send on it in loops and close it \(n = …\)`
			defer wg.Done()
			for i := range jobs {
				out[i] = i
			}
		}()
	}
	for i := range n {
		jobs <- i
	}
	n = out[0]
	close(jobs)
	wg.Wait()
}

// lenOfChan sends what the channel holds: the schedule decides it.
func lenOfChan(out []int, n int) { // want lenOfChan:"synchronizes: communicates by channel"
	jobs := make(chan int, 4)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { // want `the parent fills jobs, which other code uses too`
			defer wg.Done()
			for i := range jobs {
				out[i] = i
			}
		}()
	}
	for range n {
		jobs <- len(jobs)
	}
	close(jobs)
	wg.Wait()
}

// interleaved sends among the starts, then feeds the rest.
func interleaved(out []int, n int) { // want interleaved:"synchronizes: communicates by channel"
	jobs := make(chan int, 4)
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() { // want `the parent fills jobs, which other code uses too`
			defer wg.Done()
			for i := range jobs {
				out[i] = i
			}
		}()
		jobs <- w
	}
	for i := 2; i < n; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}

// notAllDrain starts a goroutine that is no worker of the channel (the
// second start, tried as a construct of its own, sees the first's range
// as another use).
func notAllDrain(out []int, n int) { // want notAllDrain:"synchronizes: communicates by channel"
	jobs := make(chan int)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // want `the parent fills jobs, but not every goroutine it starts is a function literal draining it`
		defer wg.Done()
		for i := range jobs {
			out[i] = i
		}
	}()
	go func() { // want `the parent fills jobs, which other code uses too`
		defer wg.Done()
		out[0] = 1
	}()
	for i := 1; i < n; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}

// joinedByChan joins its workers by a channel.
func joinedByChan(out []int, n int) { // want joinedByChan:"synchronizes: communicates by channel"
	jobs := make(chan int)
	done := make(chan struct{})
	for range 2 {
		go func() { // want `the parent fills jobs for a pool joined by channel, which the model does not combine with the parent's sends`
			for i := range jobs {
				out[i] = i
			}
			done <- struct{}{}
		}()
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	<-done
	<-done
}

// otherChan signals another channel from a feeding loop's init.
func otherChan(out []int, n int, ready chan int) { // want otherChan:"synchronizes: communicates by channel"
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { // want `the parent sends on ready, not only on jobs`
			defer wg.Done()
			for i := range jobs {
				out[i] = i
			}
		}()
	}
	for i := 0; i < n; i++ {
		jobs <- i
	}
	for ready <- 1; n < 0; {
		jobs <- 0
	}
	close(jobs)
	wg.Wait()
}
