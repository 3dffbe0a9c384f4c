package main

import "testing"

// reference is the pipeline as one loop.
func reference(items, rounds int) totals {
	var t totals
	for i := range items {
		r := &record{id: i}
		fill(r)
		h := digest(r, rounds)
		if h%3 != 0 {
			t.count++
			t.sum += h
			t.xor ^= h ^ uint64(i)
		}
	}
	return t
}

func TestPipeline(t *testing.T) {
	for _, workers := range []int{1, 3, 8} {
		got, want := run(5000, workers, 2), reference(5000, 2)
		if got != want {
			t.Errorf("workers=%d: %+v, want %+v", workers, got, want)
		}
	}
}
