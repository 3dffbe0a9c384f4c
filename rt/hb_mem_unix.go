//go:build unix && !race && (amd64 || arm64 || ppc64 || ppc64le || riscv64 || s390x || loong64 || mips64 || mips64le)

package rt

import (
	"runtime"
	"syscall"
	"unsafe"
)

// hbMem hands out regions' cells from anonymous mappings of 64 regions
// (16 MB of address space each; a page takes memory once touched). The
// mappings are unmapped when the engine is collected (a test's engine;
// the program's lives as long as the program): only the engine's
// regions, extensions and threads point into them.
type hbMem struct {
	rest []byte    // what is left of the last mapping
	maps *[][]byte // every mapping, for the cleanup
}

const hbMapRegions = 64

// cells returns the cells of a new region of e: zero, as a mapping's
// pages are. If mapping fails, they come from the Go heap.
func (m *hbMem) cells(e *hbEngine) *hbCells {
	size := int(unsafe.Sizeof(hbCells{}))
	if len(m.rest) < size {
		b, err := syscall.Mmap(-1, 0, hbMapRegions*size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		if err != nil {
			return new(hbCells)
		}
		if m.maps == nil {
			m.maps = new([][]byte)
			runtime.AddCleanup(e, hbUnmap, m.maps)
		}
		*m.maps = append(*m.maps, b)
		m.rest = b
	}
	c := (*hbCells)(unsafe.Pointer(unsafe.SliceData(m.rest)))
	m.rest = m.rest[size:]
	return c
}

// hbUnmap unmaps a collected engine's mappings.
func hbUnmap(maps *[][]byte) {
	for _, b := range *maps {
		_ = syscall.Munmap(b)
	}
}
