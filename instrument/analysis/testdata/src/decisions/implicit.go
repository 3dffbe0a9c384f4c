package decisions

import (
	"iter"
	"sort"
	"sync"
	"time"
)

// string(b) reads every byte of b: the write b[i] is not independent.
func toString(b []byte, out []string) {
	var wg sync.WaitGroup
	for i := range b { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			b[i] = 'x'         // want `b\[i\]: checked: not proven` `b: read-only: ` `i: private: `
			out[i] = string(b) // want `out\[i\]: independent: ` `out: read-only: ` `i: private: ` `b: read-only: `
		})
	}
	wg.Wait()
}

// append(dst, a...) reads every element of a.
func appendAll(a []int, out [][]int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			a[i] = i                          // want `a\[i\]: checked: not proven` `a: read-only: ` `i: private: ` `i: private: `
			out[i] = append([]int(nil), a...) // want `out\[i\]: independent: ` `out: read-only: ` `i: private: ` `a: read-only: `
		})
	}
	wg.Wait()
}

type pair struct{ x, y int }

func (p pair) sum() int { return p.x + p.y }

// ps[i].sum() copies only ps[i]; (*q).sum() copies all of *q, which may
// be any element.
func valueRecv(ps []pair, q *pair, out []int) {
	var wg sync.WaitGroup
	for i := range ps { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			ps[i].x = i      // want `ps\[i\].x: checked: not proven` `ps: read-only: ` `i: private: ` `i: private: `
			out[i] = q.sum() // want `out\[i\]: checked: not proven` `out: read-only: ` `i: private: ` `q: read-only: `
		})
	}
	wg.Wait()
}

// A literal handed to another package runs its checked copy (a prologue),
// which the proofs do not follow.
func sorted(rows [][]int) {
	var wg sync.WaitGroup
	for i := range rows { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			r := rows[i] // want `rows\[i\]: checked: passes sort.Slice a value it can follow or call` `rows: read-only: ` `i: private: `
			sort.Slice(r, func(x, y int) bool { return r[x] < r[y] })
		})
	}
	wg.Wait()
}

// A timer's function runs on a goroutine of its own.
func timer(x *int) {
	time.AfterFunc(time.Millisecond, func() { *x = 1 }) // want `time.AfterFunc runs its function on a goroutine of its own, part of no parallel construct — not checked`
}

// iter.Pull runs its iterator on a coroutine, a goroutine of its own.
func pull(seq func(func(int) bool)) int {
	next, stop := iter.Pull(seq) // want `iter.Pull runs its function on a goroutine of its own, part of no parallel construct — not checked`
	defer stop()
	v, _ := next()
	return v
}
