//go:build !(unix && !race && (amd64 || arm64 || ppc64 || ppc64le || riscv64 || s390x || loong64 || mips64 || mips64le))

package rt

// hbMem hands out regions' cells from the Go heap: a platform without
// mmap, a 32-bit one, whose address space a mapping four times the size
// of the memory it shadows would crowd, or a -race build of rt's tests
// (the race detector sees no ordering in atomics outside the Go heap,
// and the cells' locks are atomics). The cells hold no pointers,
// so the collector does not scan them, but they count in its heap goal.
type hbMem struct{}

// cells returns the cells of a new region.
func (m *hbMem) cells(*hbEngine) *hbCells { return new(hbCells) }
