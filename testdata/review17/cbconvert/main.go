// A callback passed straight to a helper of its package reads src.w; one
// of its calls writes the same int through a converted pointer,
// (*other)(src).w, which needs no unsafe since other and scanner have one
// underlying type. go run -race reports the race (Write at main.go:37,
// Previous read at main.go:39, or the other order). goanomaly run at
// 5587ffc printed the slice and no report: the callback-reads proof
// (instrument/analysis/cbreads_overlap.go, treeWrite.meets) took field w
// of other and field w of scanner for two locations because they are two
// *types.Var, so src.w was read unchecked (vet -dynamic -accesses:
// "src.w: read-only: nothing the helper's tree runs writes it"). It
// should report the READ-WRITE pair main.go:37 / main.go:39 on every run.
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
type other struct{ w int }

func blur(src *scanner, out []int) {
	parallel(len(out), func(i int) {
		if i == 0 {
			(*other)(src).w = 7
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
