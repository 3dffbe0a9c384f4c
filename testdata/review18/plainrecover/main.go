// A deferred call into a dependency that is not rewritten which recovers
// a panic (defer dep.Catch(&err), defer dep.Swallow()) no longer stopped
// it: goanomaly run and goanomaly run -hb crashed with "panic: empty
// input" where go run -race prints [<nil> recovered: empty input <nil>].
// The rewriter deferred such a call wrapped (rt.PlainArgs1(dep.Catch)(&err),
// rt.Plain(dep.Swallow), rt.ForeignLater(t, dep.Swallow)), so recover()
// was not called by the deferred function and returned nil. Fixed in
// session 18: the call stays deferred as written, bracketed by defer
// rt.PlainAfter() before it and defer rt.PlainBefore() after it (and
// ForeignNext for -hb). Modes: args, noargs, block. Testscript
// review18_plainrecover.
package main

import (
	"fmt"
	"os"
	"sync"

	"example.com/dep"
)

func parse(s string) (n int, err error) {
	defer dep.Catch(&err)
	if s == "" {
		panic("empty input")
	}
	return len(s), nil
}

func quiet(s string) int {
	defer dep.Swallow()
	if s == "" {
		panic("empty input")
	}
	return len(s)
}

func main() {
	in := []string{"a", "", "abc"}
	errs := make([]error, len(in))
	var wg sync.WaitGroup
	for i, s := range in {
		wg.Add(1)
		go func() {
			defer wg.Done()
			switch os.Args[1] {
			case "args":
				_, errs[i] = parse(s)
			case "noargs":
				quiet(s)
			case "block":
				func() {
					defer dep.Catch(&errs[i])
					if s == "" {
						panic("empty input")
					}
				}()
			}
		}()
	}
	wg.Wait()
	fmt.Println(errs)
}
