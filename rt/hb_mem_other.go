//go:build !(unix && !race && (amd64 || arm64 || ppc64 || ppc64le || riscv64 || s390x || loong64 || mips64 || mips64le))

package rt

import "unsafe"

// hbMem hands out the shadow's memory from the Go heap: a platform
// without mmap, a 32-bit one, whose address space a mapping four times
// the size of the memory it shadows would crowd, or a -race build of
// rt's tests (the race detector sees no ordering in atomics outside the
// Go heap, and the cells' locks are atomics). The blocks hold no
// pointers, so the collector does not scan them, but they count in its
// heap goal; a block lives as long as a pointer to it (a region, an
// extension, a free list).
type hbMem struct{}

// hbMemOffHeap says whether hbMem's memory is outside the Go heap: here
// it is not, and what holds pointers (extension blocks) must be typed
// Go memory, which the collector scans.
const hbMemOffHeap = false

// alloc returns n zero bytes, 16-byte aligned.
func (m *hbMem) alloc(_ *hbEngine, n uintptr) unsafe.Pointer {
	b := make([]uint64, (n+15)/8+1)
	p := unsafe.Pointer(unsafe.SliceData(b))
	return unsafe.Add(p, (16-uintptr(p)%16)%16)
}
