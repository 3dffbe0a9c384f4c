// Command finegrained is the fork-join overhead kernel: -regions small
// parallel regions one after the other, each a parallel loop of -width
// goroutines that update a slice of a 256-element vector, joined by
// wg.Wait, followed by a short sequential step that reads the whole vector.
// It measures the cost of entering and leaving constructs, not of checks.
// It prints a checksum.
//
// RACY VARIANT, for differential tests: each goroutine updates the first
// element of the next goroutine's range too (off-by-one upper bound), a
// race on v.
// The line is marked "planted race".
package main

import (
	"flag"
	"fmt"
	"sync"
)

func main() {
	regions := flag.Int("regions", 100_000, "fork-join regions")
	width := flag.Int("width", 4, "goroutines per region")
	flag.Parse()
	v := make([]int64, 256)
	var carry int64
	for r := range *regions {
		var wg sync.WaitGroup
		for c := range *width {
			wg.Go(func() {
				for i := c * len(v) / *width; i <= (c+1)*len(v) / *width && i < len(v); i++ { // planted race: <= takes the next range's first element
					v[i] = (v[i]*3 + int64(i) + carry) % 1_000_003
				}
			})
		}
		wg.Wait()
		carry = v[r%len(v)]
	}
	var sum int64
	for _, x := range v {
		sum += x
	}
	fmt.Printf("finegrained regions=%d width=%d: sum %d, carry %d\n", *regions, *width, sum, carry)
}
