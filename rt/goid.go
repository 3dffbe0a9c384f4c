package rt

import (
	"runtime"
	"sync"
)

// goid returns the calling goroutine's id, parsed from the first line of
// its stack trace ("goroutine 18 [running]:"). It costs a microsecond or
// more: gls_g.go uses it to find where g keeps the id, and to name
// goroutines where it finds no such place, as gls_stack.go does on an
// architecture without getg. The buffer runtime.Stack fills comes from a
// few fixed ones, so Current allocates nothing there either.
func goid() uint64 {
	for i := 0; ; i++ {
		b := &goidBufs[i%len(goidBufs)]
		if i >= len(goidBufs) {
			b.mu.Lock()
		} else if !b.mu.TryLock() {
			continue
		}
		id := parseGoid(b.buf[:runtime.Stack(b.buf[:], false)])
		b.mu.Unlock()
		return id
	}
}

var goidBufs [8]struct {
	mu  sync.Mutex
	buf [64]byte
}

func parseGoid(b []byte) uint64 {
	const prefix = "goroutine "
	var id uint64
	for _, c := range b[len(prefix):] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uint64(c-'0')
	}
	return id
}
