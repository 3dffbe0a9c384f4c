// Command loopcopy takes the address of a three-clause loop's variable in
// the blocks of a parallel loop: each iteration's copy is a new heap
// object, on memory a finished block's copies may have held. The copy's
// shadow is forgotten at the top of the body, and the loop's header, which
// only its own iteration's copy reaches, is not checked (loopvars.go):
// before, the conservative build reported the header's writes of v
// against a freed copy's history when the collector reused its memory.
package main

import (
	"fmt"
	"runtime"
	"sync"
)

func bump(p *int) { *p += 1 }

func main() {
	a := make([]int, 400)
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Go(func() {
			runtime.GC() // free the copies of the blocks that ran before
			for v := i; v < len(a); v += 4 {
				a[v]++
				if v%8 == 0 {
					bump(&v)
				}
			}
		})
	}
	wg.Wait()
	fmt.Println(a[4], a[5])
}
