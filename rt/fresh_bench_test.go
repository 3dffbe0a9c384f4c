package rt

import (
	"testing"
	"unsafe"
)

// BenchmarkNew is New of a 512-byte array whose address was checked before
// (the shadow has cells): the cost a declaration in construct code pays,
// now a heap allocation and a clear of its leaves.
func BenchmarkNew(b *testing.B) {
	t, c := benchTask(b, "")
	defer c.Join()
	var warm [64]int64
	t.Write(uintptr(unsafe.Pointer(&warm[0])), 1)
	b.ReportAllocs()
	for b.Loop() {
		var buf [64]int64
		New(t, &buf)
		sinkInt = buf[3]
	}
}

// BenchmarkMake is Make of a 64-element slice, as BenchmarkNew.
func BenchmarkMake(b *testing.B) {
	t, c := benchTask(b, "")
	defer c.Join()
	var warm [64]int64
	t.Write(uintptr(unsafe.Pointer(&warm[0])), 1)
	b.ReportAllocs()
	for b.Loop() {
		s := Make(t, make([]int64, 64))
		sinkInt = s[3]
	}
}
