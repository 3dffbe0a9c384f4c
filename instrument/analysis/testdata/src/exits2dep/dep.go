// Package exits2dep has functions that may end their caller's goroutine:
// their facts reach exits2.
package exits2dep

import (
	"runtime"
	"testing"
)

func Bail() { // want Bail:"ends the goroutine: calls runtime.Goexit"
	runtime.Goexit()
}

func Check(t testing.TB, ok bool) { // want Check:"ends the goroutine: calls t.FailNow"
	if !ok {
		t.FailNow()
	}
}

func Via(t *testing.T) { // want Via:"ends the goroutine: calls Check, which calls t.FailNow"
	Check(t, false)
}
