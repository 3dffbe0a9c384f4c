// Command pipeline is the unstructured kernel of a goroutine pipeline over
// channels: a generator makes -items records, -workers transform workers
// hash each one, a filter stage drops a third of them, and an aggregator
// folds the rest. Stages are connected by buffered channels; the workers'
// output channel is closed by a goroutine that waits for them, as Go
// programs do. Records are pointers handed from stage to stage, each stage
// writing fields the next one reads. It prints a checksum.
package main

import (
	"flag"
	"fmt"
	"runtime"
	"sync"
)

// record is one item flowing through the pipeline.
type record struct {
	id    int
	words [8]uint64
	hash  uint64
	keep  bool
}

// fill sets the record's payload from its id (the generator's work).
func fill(r *record) {
	x := uint64(r.id)*0x9e3779b97f4a7c15 + 1
	for i := range r.words {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		r.words[i] = x
	}
}

// digest is the transform's work: rounds of mixing over the payload.
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

// totals is what the aggregator computes.
type totals struct {
	count int
	sum   uint64
	xor   uint64
}

func generate(n int) <-chan *record {
	out := make(chan *record, 128)
	go func() {
		defer close(out)
		for i := range n {
			r := &record{id: i}
			fill(r)
			out <- r
		}
	}()
	return out
}

func transform(in <-chan *record, workers, rounds int) <-chan *record {
	out := make(chan *record, 128)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range in {
				r.hash = digest(r, rounds)
				out <- r
			}
		}()
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

func filter(in <-chan *record) <-chan *record {
	out := make(chan *record, 128)
	go func() {
		defer close(out)
		for r := range in {
			r.keep = r.hash%3 != 0
			if r.keep {
				out <- r
			}
		}
	}()
	return out
}

func aggregate(in <-chan *record) totals {
	var t totals
	for r := range in {
		t.count++
		t.sum += r.hash
		t.xor ^= r.hash ^ uint64(r.id)
	}
	return t
}

// run builds the pipeline and returns the aggregator's totals.
func run(items, workers, rounds int) totals {
	return aggregate(filter(transform(generate(items), workers, rounds)))
}

func main() {
	items := flag.Int("items", 600000, "records through the pipeline")
	workers := flag.Int("workers", runtime.GOMAXPROCS(0)*2, "transform workers")
	rounds := flag.Int("rounds", 16, "mixing rounds per record")
	flag.Parse()
	t := run(*items, *workers, *rounds)
	fmt.Printf("pipeline items=%d rounds=%d: kept %d, sum %016x, xor %016x\n", *items, *rounds, t.count, t.sum, t.xor)
}
