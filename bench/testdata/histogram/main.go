// Command histogram is the reduction kernel: a 256-bin histogram of -n
// pseudo-random values (a hash of the index), -chunks goroutines (default
// 4×GOMAXPROCS) over contiguous ranges, each into a private histogram that
// it then adds into the shared one under a mutex. The merge order depends on
// the schedule, but integer addition commutes, so it is marked
// //goanomaly:ordered-ok. It prints a checksum.
//
// RACY VARIANT, for differential tests: the private histograms are merged
// into the shared one without the mutex, a read-modify-write race on hist.
// The line is marked "planted race".
package main

import (
	"flag"
	"fmt"
	"runtime"
	"sync"
)

const bins = 256

// value is the i-th pseudo-random value (splitmix64).
func value(i uint64) uint64 {
	z := i*0x9e3779b97f4a7c15 + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func histogram(n, chunks int) *[bins]int64 {
	var (
		hist [bins]int64
		wg   sync.WaitGroup
	)
	for c := range chunks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var local [bins]int64
			for i := c * n / chunks; i < (c+1)*n/chunks; i++ {
				v := value(uint64(i))
				local[(v>>56)^(v&0xff)]++
			}
			for b, k := range local {
				hist[b] += k // planted race: merged without the mutex
			}
		}()
	}
	wg.Wait()
	return &hist
}

func main() {
	n := flag.Int("n", 200_000_000, "values")
	chunks := flag.Int("chunks", 4*runtime.GOMAXPROCS(0), "goroutines")
	flag.Parse()
	hist := histogram(*n, *chunks)
	var total, weighted, peak int64
	for b, k := range hist {
		total += k
		weighted += int64(b) * k
		peak = max(peak, k)
	}
	fmt.Printf("histogram n=%d: total %d, weighted %d, max bin %d\n", *n, total, weighted, peak)
}
