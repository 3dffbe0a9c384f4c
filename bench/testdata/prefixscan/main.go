// Command prefixscan is the blocked parallel prefix sum kernel: out[i] =
// in[0] + … + in[i] for -n int64 values, -reps times. Each scan splits the
// array into -blocks blocks (default 4×GOMAXPROCS): a parallel loop sums
// each block, the parent scans the block sums, and a second parallel loop
// scans each block from its offset. The loops are written with wg.Add, go
// and defer wg.Done. It prints a checksum.
//
// RACY VARIANT, for differential tests: the second loop scans one value of
// the next block too (off-by-one upper bound), a race on out.
// The line is marked "planted race".
package main

import (
	"flag"
	"fmt"
	"runtime"
	"sync"
)

// scan sets out to the inclusive prefix sums of in, using sums (one slot
// per block) as scratch.
func scan(out, in, sums []int64) {
	n, blocks := len(in), len(sums)
	var wg sync.WaitGroup
	for b := range blocks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var s int64
			for _, v := range in[b*n/blocks : (b+1)*n/blocks] {
				s += v
			}
			sums[b] = s
		}()
	}
	wg.Wait()
	var offset int64
	for b, s := range sums {
		sums[b] = offset
		offset += s
	}
	for b := range blocks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := sums[b]
			for i := b * n / blocks; i < min((b+1)*n/blocks+1, n); i++ { // planted race: one value too far
				s += in[i]
				out[i] = s
			}
		}()
	}
	wg.Wait()
}

func main() {
	n := flag.Int("n", 8_000_000, "values")
	reps := flag.Int("reps", 25, "scans")
	blocks := flag.Int("blocks", 4*runtime.GOMAXPROCS(0), "blocks")
	flag.Parse()
	in, out, sums := make([]int64, *n), make([]int64, *n), make([]int64, *blocks)
	for i := range in {
		in[i] = int64(i%1000) - 499
	}
	var check int64
	for r := range *reps {
		in[r%*n] += int64(r) // each scan differs
		scan(out, in, sums)
		check = check*31 + out[len(out)-1] + out[len(out)/3]
	}
	fmt.Printf("prefixscan n=%d reps=%d: last %d, check %d\n", *n, *reps, out[len(out)-1], check)
}
