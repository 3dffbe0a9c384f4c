//go:build !(wasm || amd64 || 386 || arm || arm64 || loong64 || mips || mipsle || mips64 || mips64le || ppc64 || ppc64le || riscv64 || s390x)

package rt

import "unsafe"

// Where rt has no getg (gls_g.go lists the architectures that have one,
// getg_*.s), a goroutine is named by the id runtime.Stack prints: a
// microsecond or more per Current inside a construct, nothing outside.

// gptr is unused here: always nil.
type gptr = unsafe.Pointer

// gFast is false: goroutines are named by goid.
const gFast = false

// getg has no g to return here.
func getg() unsafe.Pointer { return nil }

// idOf returns the id of the goroutine whose key self returned.
func idOf(_ gptr, key uintptr) uint64 { return uint64(key) }

func calibrate() {}

// stackDepth is unknown (0) without getg.
func stackDepth() uintptr { return 0 }
