// Subtests with t.Parallel sharing a read-only fixture built by the
// parent, a mutex-guarded tally, t.Cleanup reading what the subtests
// wrote after they all finished, and a table-driven test capturing tc.
// Correct: go test -race is silent.
package subtests

import (
	"fmt"
	"sort"
	"sync"
	"testing"
)

type fixture struct {
	words []string
	index map[string]int
}

func newFixture() *fixture {
	f := &fixture{words: []string{"b", "a", "c", "d"}, index: map[string]int{}}
	sort.Strings(f.words)
	for i, w := range f.words {
		f.index[w] = i
	}
	return f
}

func TestParallelSubtests(t *testing.T) {
	fx := newFixture()
	var mu sync.Mutex
	tally := map[string]int{}
	results := make([]int, len(fx.words))
	t.Cleanup(func() {
		sum := 0
		for _, r := range results {
			sum += r
		}
		if sum != 6 || len(tally) != 4 {
			t.Errorf("sum %d tally %v", sum, tally)
		}
	})
	for i, w := range fx.words {
		t.Run(w, func(t *testing.T) {
			t.Parallel()
			got := fx.index[w]
			results[i] = got
			mu.Lock()
			tally[w]++
			mu.Unlock()
		})
	}
}

type tc struct {
	name string
	in   []int
	want int
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

func TestTable(t *testing.T) {
	cases := []tc{{"one", []int{1}, 1}, {"two", []int{1, 1}, 2}, {"none", nil, 0}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := sum(c.in); got != c.want {
				t.Errorf("%s: %d", c.name, got)
			}
		})
	}
	t.Run("group", func(t *testing.T) {
		shared := make([]string, 3)
		for i := range 3 {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				shared[i] = fmt.Sprint(i)
			})
		}
		t.Cleanup(func() { _ = shared[0] + shared[1] })
	})
}
