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
	mu     sync.Mutex
	rest   []byte    // what is left of the last mapping
	maps   *[][]byte // every mapping, for the cleanup
	failed bool      // a mapping of hbMapSize failed: the system has no more, and every later block comes from the Go heap (retrying cost a 16 MB mmap per record)
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

// mmap maps n bytes for e, or returns nil once a mapping of hbMapSize
// failed. A larger block's refusal says nothing of the 16 MB ones.
func (m *hbMem) mmap(e *hbEngine, n uintptr) []byte {
	if m.failed {
		return nil
	}
	b, err := hbMmap(int(n))
	if err != nil {
		m.failed = n <= hbMapSize
		return nil
	}
	if m.maps == nil {
		m.maps = new([][]byte)
		runtime.AddCleanup(e, hbUnmap, m.maps)
	}
	*m.maps = append(*m.maps, b)
	return b
}

// hbMmap maps n bytes of anonymous memory (a variable: tests make it fail).
var hbMmap = func(n int) ([]byte, error) {
	return syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
}

// hbUnmap unmaps a collected engine's mappings.
func hbUnmap(maps *[][]byte) {
	for _, b := range *maps {
		_ = syscall.Munmap(b)
	}
}
