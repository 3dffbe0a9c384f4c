//go:build wasm || amd64 || 386 || arm || arm64 || loong64 || mips || mipsle || mips64 || mips64le || ppc64 || ppc64le || riscv64 || s390x

package rt

import "unsafe"

// A goroutine is named by the address of its g, the runtime's goroutine
// descriptor, which getg (getg_*.s: the TLS slot on 386 and amd64, the g
// register elsewhere) returns in a few instructions. A g is never moved or
// freed, but once its goroutine exits it is reused for a new one; a
// goroutine that exits attached (Goexit, or a panic recovered above a root
// construct) would pass its task on. So the table also keeps the goroutine
// id, read from g at the offset calibrate finds, and lookup ignores an
// entry whose id is not the caller's.
//
// Where calibrate finds no unique offset (a runtime whose g layout it does
// not recognise) every goroutine is named by its goid instead, as in
// gls_stack.go: slow but right.

// gptr is the caller's g, or nil when goroutines are named by goid.
type gptr = unsafe.Pointer

// getg returns the calling goroutine's g.
func getg() unsafe.Pointer

var (
	gFast   bool    // goroutines are named by their g (calibrate succeeded)
	goidOff uintptr // offset of the goroutine id in g
	stackOK bool    // g begins with the stack bounds lo, hi (checked by calibrate)
)

// idOf returns the id of the goroutine whose key and g self returned.
func idOf(g gptr, key uintptr) uint64 {
	if g == nil {
		return uint64(key)
	}
	return *(*uint64)(unsafe.Add(g, goidOff))
}

// calibrate looks for the offset in g holding the goroutine id: the one
// offset among the first 48 words (all within g on every Go release) whose
// uint64 equals the id runtime.Stack prints, in the calling goroutine and
// in four more. It runs once, before the first Attach.
func calibrate() {
	step := unsafe.Alignof(uint64(0))
	n := (48*unsafe.Sizeof(uintptr(0)) - 8) / step
	ok := make([]bool, n)
	for i := range ok {
		ok[i] = true
	}
	probe := func() {
		g, id := getg(), goid()
		for i := range ok {
			if *(*uint64)(unsafe.Add(g, uintptr(i)*step)) != id {
				ok[i] = false
			}
		}
	}
	probe()
	for range 4 {
		done := make(chan struct{})
		go func() {
			defer close(done)
			probe()
		}()
		<-done
	}
	stackOK = stackBounds()
	found := -1
	for i, o := range ok {
		if o {
			if found >= 0 {
				return // two offsets fit: trust neither
			}
			found = i
		}
	}
	if found >= 0 {
		goidOff, gFast = uintptr(found)*step, true
	}
}

// stackBounds says whether g begins with the bounds of the goroutine's stack
// (lo, hi: the layout runtime/cgo also relies on): they must hold the
// address of a local variable of the calling goroutine.
//
//go:noinline
func stackBounds() bool {
	var x byte
	sp := uintptr(unsafe.Pointer(&x))
	g := getg()
	lo, hi := *(*uintptr)(g), *(*uintptr)(unsafe.Add(g, unsafe.Sizeof(uintptr(0))))
	return lo < sp && sp < hi && hi-lo >= 2048
}

// stackDepth returns how far below the top of the calling goroutine's
// stack its frame is, in bytes: a stack that grows is copied with every
// frame at the same distance from the top. 0: unknown.
//
//go:noinline
func stackDepth() uintptr {
	glsOnce.Do(calibrate)
	if !stackOK {
		return 0
	}
	var x byte
	hi := *(*uintptr)(unsafe.Add(getg(), unsafe.Sizeof(uintptr(0))))
	return hi - uintptr(unsafe.Pointer(&x))
}
