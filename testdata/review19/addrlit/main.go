// The address of a slice or map composite literal, in main and in a
// parallel loop's goroutine. go run prints 2 1 [2 3 4 5]; every goanomaly
// build mode at 8f1699e failed to compile it ("cannot take address of
// _ga_rt.Make(…)": instrument/rewrite/expr.go wrapped the literal in Make
// or MakeMap under &). Now rt.Ref makes the variable & would
// (testscript build_review19_addr_composite).
package main

import (
	"fmt"
	"sync"
)

type holder struct {
	s *[]int
	m *map[string]int
}

func main() {
	h := holder{s: &[]int{1, 2}, m: &map[string]int{"a": 1}}
	out := make([]int, 4)
	var wg sync.WaitGroup
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := &[]int{i, i}
			q := &map[int]int{i: i}
			out[i] = len(*p) + (*q)[i]
		}()
	}
	wg.Wait()
	fmt.Println(len(*h.s), (*h.m)["a"], out)
}
