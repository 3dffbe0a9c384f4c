package rt

import (
	"io"
	"runtime"
	"testing"
)

// TestSpawned0RNilAsGo: var f func() error; go f() panics in the new
// goroutine with a nil dereference (the compiler wraps the call, which
// drops the result). What Spawned0R gives for a nil f is called with the
// spawn as its argument (go _ga_rt.Spawned0R(f)(t.GoAt(site))), so the
// go statement is wrapped too, and the call panics as f() does.
func TestSpawned0RNilAsGo(t *testing.T) {
	root, _ := hbTestRoot(t, "", io.Discard)
	g := Spawned0R[error](nil)
	for _, s := range []*Spawn{nil, root.Go()} {
		func() {
			defer func() {
				if _, ok := recover().(runtime.Error); !ok {
					t.Error("calling it did not panic with a runtime error, as f() does")
				}
			}()
			g(s)
		}()
	}
}
