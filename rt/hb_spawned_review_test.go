package rt

import (
	"io"
	"runtime"
	"testing"
)

// TestSpawned0RNilAsGo: var f func() error; go f() panics in the new
// goroutine with a nil dereference (the compiler wraps the call, which
// drops the result). Spawned0R gave a nil func(), and go of a nil func()
// is "fatal error: go of nil func value" in the parent instead. The
// function Spawned0R gives for a nil f must be one that panics as f()
// does, with or without a spawn.
func TestSpawned0RNilAsGo(t *testing.T) {
	root, _ := hbTestRoot(t, "", io.Discard)
	for _, g := range []func(){Spawned0R[error](nil, nil), Spawned0R[error](root.Go(), nil)} {
		if g == nil {
			t.Fatal("Spawned0R of a nil function gave a nil func(): go of it is a fatal error, not f()'s panic")
		}
		func() {
			defer func() {
				if _, ok := recover().(runtime.Error); !ok {
					t.Error("calling it did not panic with a runtime error, as f() does")
				}
			}()
			g()
		}()
	}
}
