package rt

import "unsafe"

// A chunk holds the cells of chunkCells neighbouring addresses of one
// alignment class, contiguously, so the shadow table is keyed by chunk
// (several times fewer slots) and the cells of neighbouring elements share
// cache lines.
//
// Elements may be of any size and interleaved, so a chunk must give every
// distinct address a cell of its own: a 64-byte chunk indexed by word would
// give the eight bytes of a word one cell, and one indexed by byte would
// hold 64 cells, eight times too many for a program touching one word in
// each. Instead an address's class is its alignment, the number of its
// trailing zero bits up to 3 (a word, an odd multiple of 4, of 2, an odd
// address). The addresses of one class are evenly spaced (8, 8, 4 and 2
// bytes apart), so a chunk covers the eight consecutive addresses of one
// class that start at a multiple of eight times that spacing (64, 64, 32 and
// 16 bytes), and an address's cell is its index in that run. The mapping is
// exact for every element size and mix of sizes, needs no probing inside a
// chunk, and fills every cell of a dense array of 1-, 2-, 4- or 8-byte
// elements (a []int32's even elements fill word chunks, its odd ones the
// chunks of odd multiples of 4). A program touching one address per chunk pays for eight
// cells, about 400 bytes per address instead of 64.
type chunk [chunkCells]cell

const (
	chunkBits  = 3
	chunkCells = 1 << chunkBits
)

// chunkOf returns the key of the chunk that holds addr's cell, unique across
// classes, and the cell's index in it.
func chunkOf(addr uintptr) (key uintptr, i int) {
	low := addr & 7 * 2
	class := classes >> low & 3
	shift := spacings >> low & 3
	return addr>>(shift+chunkBits)<<2 | class, int(addr>>shift) & (chunkCells - 1)
}

// classes and spacings give, two bits for each value of an address's low
// three bits, its class (trailing zeros, up to 3) and the log2 of the
// spacing of its class (1, 2, 3, 3), without counting bits.
const (
	classes  uintptr = 3 | 0<<2 | 1<<4 | 0<<6 | 2<<8 | 0<<10 | 1<<12 | 0<<14
	spacings uintptr = 3 | 1<<2 | 2<<4 | 1<<6 | 3<<8 | 1<<10 | 2<<12 | 1<<14
)

// chunkAddr returns the address whose cell is index i of the chunk key.
func chunkAddr(key uintptr, i int) uintptr {
	class := key & 3
	shift := min(class+1, 3)
	return key>>2<<(shift+chunkBits) | uintptr(i)<<shift | 1<<class&7
}

// near returns the cell of addr, creating its chunk on first touch (nil
// when the table is full). When addr is in the chunk of last (not nil), the
// cell of the previous check, it is found there without a table lookup: the
// task's cell cache is a chunk cache too.
func (s *shadow) near(last *cell, addr uintptr) *cell {
	key, i := chunkOf(addr)
	if lk, li := chunkOf(last.addr); lk == key {
		return (*cell)(unsafe.Add(unsafe.Pointer(last), (i-li)*cellSize))
	}
	return s.lookup(addr, key, i)
}

// word is near's common case, small enough to inline: the cell of addr when
// addr and c's address are words of one chunk (they differ in bits 3 to 5
// only).
func (c *cell) word(addr uintptr) (*cell, bool) {
	if d := addr ^ c.addr; d&^((chunkCells-1)<<3) != 0 || c.addr&7 != 0 {
		return nil, false
	}
	return (*cell)(unsafe.Add(unsafe.Pointer(c), int(addr-c.addr)>>3*cellSize)), true
}

// cellSize is the size of a cell, the stride of a chunk.
const cellSize = int(unsafe.Sizeof(cell{}))
