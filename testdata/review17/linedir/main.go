// A file with a //line directive that gives no column, as goyacc and
// other generators write (//line parser.y:100). go run -race builds it
// and reports the race on total at gen.y:106. goanomaly run (any mode)
// at 5587ffc failed before building: "rewriting ...: format.Node
// internal error (gen.y:100: invalid column number: 0 (and 18 more
// errors))", exit status 1: every position under such a directive has
// column 0, and the rewriter's own /*line file:line:col*/ directives
// (walk.go's anchor, rewrite.go's anchorDecls, clone.go, prologue.go,
// rangetemp.go) named it. It should build and report the WRITE-WRITE
// pair at gen.y:106.
package main

import (
	"fmt"
	"sync"
)

var total int

//line gen.y:100
func work(n int) int {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			total += i
		}()
	}
	wg.Wait()
	return total
}

//line main.go:34
func main() {
	fmt.Println(work(4))
}
