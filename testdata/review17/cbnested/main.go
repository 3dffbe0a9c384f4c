// A callback passed straight to a helper of its package reads src.w; in
// its first call it runs the same helper again, parallel(1, setw), with a
// function value that writes src.w. go run -race reports the race (Write
// at main.go:35 by one goroutine, Previous read at main.go:40 by
// another). goanomaly run at 5587ffc printed the slice and no report on
// every run: the callback-reads proof (instrument/analysis/cbreads_tree.go,
// treeWalk.walk's viaValue) took every call of the helper's parameter for
// a call of the literal, also inside the helper reached again as a static
// callee from the tree, so setw was never walked and src.w was read
// unchecked (vet -dynamic -accesses: "src.w: read-only: nothing the
// helper's tree runs writes it"). It should report the READ-WRITE pair
// main.go:35 / main.go:40 on every run.
package main

import (
	"fmt"
	"sync"
)

func parallel(n int, fn func(i int)) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(i)
		}()
	}
	wg.Wait()
}

type scanner struct{ w int }

func blur(src *scanner, out []int) {
	setw := func(j int) { src.w = 7 + j }
	parallel(len(out), func(i int) {
		if i == 0 {
			parallel(1, setw)
		}
		out[i] = src.w * i
	})
}

func main() {
	src := &scanner{w: 3}
	out := make([]int, 8)
	blur(src, out)
	fmt.Println(out)
}
