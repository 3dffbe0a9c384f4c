package rt

import "runtime"

// goid returns the calling goroutine's id, parsed from the first line of
// its stack trace ("goroutine 18 [running]:"). It costs a microsecond or
// more: gls_g.go uses it once to find where g keeps the id, gls_stack.go on
// every call where there is no getg.
func goid() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
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
