// A function that has a checked clone (it is called in a construct) is
// called through the clone from code outside constructs in an -hb build,
// so the program's own view of its stack changes: runtime.Caller names
// _ga_bump where the program wrote bump (github.com/sourcegraph/conc's
// ExampleCatcher_callers fails on its Output this way). The checked program
// must print what the plain one prints.
package main

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
)

type cell struct{ n int }

func short(pc uintptr) string {
	name := runtime.FuncForPC(pc).Name()
	return name[strings.LastIndex(name, ".")+1:]
}

func (c *cell) bump() string {
	c.n++
	pc, _, _, _ := runtime.Caller(0)
	return short(pc)
}

func main() {
	cells := make([]cell, 4)
	var wg sync.WaitGroup
	for i := range cells {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cells[i].bump()
		}()
	}
	wg.Wait()
	c := &cell{}
	fmt.Println(c.bump(), cells[0].n)
}
