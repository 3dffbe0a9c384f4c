// Package stdcalls has calls into the standard library that read or write
// the memory of their arguments: the table-known ones are checked by the
// rewriter as ranges, the others are noted and leave the construct not
// fully proven.
package stdcalls

import (
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"sync"
)

// Overlapping windows sorted at once. "a: read-only" is the variable a
// (the slice header, never assigned); the elements slices.Sort writes are
// checked by the rewriter as a write range (sound_stdcalls_sort.txtar), and
// the heap footprint counts them read and written (reslice, call).
func sortOverlap(a []int) {
	var wg sync.WaitGroup
	for c := 0; c < 2; c++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Add(1)
		go func() {
			defer wg.Done()
			slices.Sort(a[c*4 : c*4+8]) // want `a: read-only: nothing writes a while the construct runs` `c: private: no other goroutine writes c` `c: private: no other goroutine writes c`
		}()
	}
	wg.Wait()
}

func putOverlap(buf []byte) {
	var wg sync.WaitGroup
	for i := range 8 { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			binary.LittleEndian.PutUint32(buf[i*2:], uint32(i)) // want `binary\.LittleEndian: checked: shared variable` `buf: read-only: nothing writes buf while the construct runs` `i: private: no other goroutine writes i` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

func cloneAndPrint(m map[int]int, s []int, out []string) {
	var wg sync.WaitGroup
	for i := range 2 { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			c := maps.Clone(m)             // want `m: read-only: nothing writes m while the construct runs`
			out[i] = fmt.Sprint(s, len(c)) // want `out\[i\]: checked: calls maps\.Clone, which may write memory of its own package` `out: read-only: nothing writes out while the construct runs` `i: private: no other goroutine writes i` `s: read-only: nothing writes s while the construct runs`
		})
	}
	wg.Wait()
}

type pt struct{ p *int }

// Arguments the table does not know: noted.
func unknown(s []int, q *pt, out [][]int) {
	var wg sync.WaitGroup
	for i := range 2 { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			out[i] = slices.Insert(s, 0, i) // want `out\[i\]: checked: calls fmt\.Sprint, which may write memory of its own package` `out: read-only: nothing writes out while the construct runs` `i: private: no other goroutine writes i` `s: read-only: nothing writes s while the construct runs` `i: private: no other goroutine writes i` `call of slices\.Insert may access the memory of its argument s unchecked — not checked`
			fmt.Sprint(q)                   // want `q: read-only: nothing writes q while the construct runs` `call of fmt\.Sprint may access the memory of its argument q unchecked — not checked`
		})
	}
	wg.Wait()
}
