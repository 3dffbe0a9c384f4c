// The functional-options pattern: a function that only returns a function
// literal (gonum.org/v1/gonum/mat's Squeeze, FormatMATLAB), called where a
// construct may run it. The literal gets the Attached/Current prologue, so
// hbUses counts the _ga_hb it declares after the prologue as a use in the
// enclosing function, which declares an unused _ga_hb: the build breaks
// ("declared and not used: _ga_hb"), and with it every package that
// imports gonum/mat under -hb.
package main

import (
	"fmt"
	"sync"
)

type formatter struct{ squeeze bool }

type option func(*formatter)

func squeeze() option {
	return func(f *formatter) { f.squeeze = true }
}

func format(opts ...option) bool {
	var f formatter
	for _, o := range opts {
		o(&f)
	}
	return f.squeeze
}

func main() {
	res := make([]bool, 4)
	var wg sync.WaitGroup
	for i := range res {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = format(squeeze())
		}()
	}
	wg.Wait()
	fmt.Println(res, format())
}
