package main

import (
	"fmt"
	"os"
	"sync"
)

// A loop nest (rewrite/coalesce_nest.go): digest's inner loop checks
// nothing in its iterations, so the copy of r.words its range makes in
// every round is checked once, before the outer loop, when a round runs
// (0 < rounds) and r is not nil; mix's inner loop reads a slice's
// elements, spanned whole once. Each goroutine writes a word of the record
// the next one digests: a race with that copy and those reads.

type record struct {
	words [8]uint64
	hash  uint64
}

// digest is bench/unstructured/pipeline's: rounds of mixing over a copy
// of the record's words.
func digest(r *record, rounds int) uint64 {
	h := uint64(14695981039346656037)
	for range rounds {
		for _, w := range r.words {
			h ^= w
			h *= 1099511628211
		}
	}
	return h
}

// mix reads the words element by element through a slice of them: the
// inner loop reads all of ws in every round, one ReadSpan of ws before
// the rounds.
func mix(r *record, rounds int) uint64 {
	h, ws := uint64(0), r.words[:]
	for range rounds {
		for _, w := range ws {
			h += w
		}
	}
	return h
}

func main() {
	rounds := len(os.Args) + 2 // 3: the golden test runs the program without arguments
	recs := make([]*record, 4)
	for i := range recs {
		recs[i] = &record{}
	}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			recs[i].hash = digest(recs[i], rounds) + mix(recs[i], rounds)
			recs[(i+1)%4].words[i] = uint64(i) // a word of the record the next goroutine digests
		})
	}
	wg.Wait()
	fmt.Println(len(recs))
}
