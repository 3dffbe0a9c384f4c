//go:build unix && !race && (amd64 || arm64 || ppc64 || ppc64le || riscv64 || s390x || loong64 || mips64 || mips64le)

package rt

import (
	"runtime"
	"sync"
	"syscall"
	"unsafe"
)

// hbMem hands out the shadow's memory (regions' cells, extension
// records) from anonymous mappings of 16 MB (a page takes memory once
// touched), a block larger than 1 MB from a mapping of its own. The
// mappings are unmapped when the engine is collected (a test's engine;
// the program's lives as long as the program): only the engine's
// regions, extensions and threads point into them.
type hbMem struct {
	mu   sync.Mutex
	rest []byte    // what is left of the last mapping
	maps *[][]byte // every mapping, for the cleanup
}

// hbMemOffHeap says whether hbMem's memory is outside the Go heap.
const hbMemOffHeap = true

const (
	hbMapSize  = 16 << 20
	hbMapApart = 1 << 20
)

// alloc returns n zero bytes, 16-byte aligned, of e's shadow, or nil if
// the system has no more.
func (m *hbMem) alloc(e *hbEngine, n uintptr) unsafe.Pointer {
	m.mu.Lock()
	defer m.mu.Unlock()
	n = (n + 15) &^ 15
	if n > hbMapApart {
		b := m.mmap(e, n)
		if b == nil {
			return nil
		}
		return unsafe.Pointer(unsafe.SliceData(b))
	}
	if uintptr(len(m.rest)) < n {
		b := m.mmap(e, hbMapSize)
		if b == nil {
			return nil
		}
		m.rest = b
	}
	p := unsafe.Pointer(unsafe.SliceData(m.rest))
	m.rest = m.rest[n:]
	return p
}

// mmap maps n bytes for e.
func (m *hbMem) mmap(e *hbEngine, n uintptr) []byte {
	b, err := syscall.Mmap(-1, 0, int(n), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil
	}
	if m.maps == nil {
		m.maps = new([][]byte)
		runtime.AddCleanup(e, hbUnmap, m.maps)
	}
	*m.maps = append(*m.maps, b)
	return b
}

// hbUnmap unmaps a collected engine's mappings.
func hbUnmap(maps *[][]byte) {
	for _, b := range *maps {
		_ = syscall.Munmap(b)
	}
}
