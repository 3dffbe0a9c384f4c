//go:build amd64 || arm64 || loong64 || mips64 || mips64le || ppc64 || ppc64le || riscv64 || s390x || wasm

package rt

import "testing"

// The addresses of TestRecentHighAddress exist only where uintptr has 64
// bits.

// TestRecentHighAddress: an address of more than recentAddrs bits is never
// held: its entry would lose its high bits, and one that differs from a
// held address only there would be taken for it.
func TestRecentHighAddress(t *testing.T) {
	r := &recentSet{gen: 1, fresh: freshGen.n.Load()}
	lo, hi := uintptr(8), uintptr(1)<<48|8
	r.note(lo, 1)
	r.note(uintptr(1)<<recentAddrs|16, 1)
	if !r.holds(lo, 1) || r.holds(hi, 1) || r.holds(uintptr(1)<<recentAddrs|16, 1) {
		t.Fatalf("holds %v %v %v, want true false false", r.holds(lo, 1), r.holds(hi, 1), r.holds(uintptr(1)<<recentAddrs|16, 1))
	}
}
