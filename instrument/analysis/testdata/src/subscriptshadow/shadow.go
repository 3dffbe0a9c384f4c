// Package subscriptshadow declares its own uint: the no-wrap guard of a row
// i*w+j is spelled with the predeclared int and uint, so where they mean
// something else the row is not proven (and the build is not broken).
package subscriptshadow

import "sync"

type uint = int8

func fill(a []int, h, w int) {
	var wg sync.WaitGroup
	for i := 0; i < h; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line 19`
		wg.Go(func() {
			for j := 0; j < w; j++ { // want `w: read-only: nothing writes w while the construct runs`
				a[i*w+j] = i // want `a\[i \* w \+ j\]: checked: not proven` `a: read-only: nothing writes a while the construct runs` `i: private: no other goroutine writes i` `w: read-only: nothing writes w while the construct runs` `i: private: no other goroutine writes i`
			}
		})
	}
	wg.Wait()
}
