package rt

import (
	"testing"
	"unsafe"
)

type leafPoint struct {
	name string
	xy   [2]int32
	ok   bool
}

func TestLeavesOf(t *testing.T) {
	got := leavesOf[leafPoint]().off
	p := leafPoint{}
	want := []uintptr{unsafe.Offsetof(p.name), unsafe.Offsetof(p.xy), unsafe.Offsetof(p.xy) + 4, unsafe.Offsetof(p.ok)}
	if len(got) != len(want) {
		t.Fatalf("leavesOf[leafPoint] = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("leavesOf[leafPoint] = %v, want %v", got, want)
		}
	}
	if l := leavesOf[[1 << 14]byte](); len(l.off) != 1 || l.reps != 1<<14 || l.stride != 1 {
		t.Errorf("layout of a 16K array: %d leaves ×%d stride %d, want 1 ×16384 stride 1", len(l.off), l.reps, l.stride)
	}
	if l := leavesOf[[4][8][2]leafPoint](); len(l.off) != len(want) || l.reps != 64 || l.stride != unsafe.Sizeof(p) {
		t.Errorf("layout of a nested array of structs: %d leaves ×%d stride %d", len(l.off), l.reps, l.stride)
	}
}

// TestWholeValueMeetsElement: a write of a whole array (a = [5]int{…}) and
// a write of one element (a[3] = 1) in concurrent blocks conflict; a write of
// a whole struct and a read of a field too; disjoint fields do not.
func TestWholeValueMeetsElement(t *testing.T) {
	for _, proto := range []string{"protocol=waitfree", "protocol=locked"} {
		e := newEnv(t, proto)
		var a [5]int
		e.parallel(2, siteLoop, func(i int, t *Task) {
			if i == 0 {
				WA(t, &a, siteA)
			} else {
				t.Write(uintptr(unsafe.Pointer(&a[3])), siteX)
			}
		})
		if len(e.reports()) == 0 {
			t.Fatalf("%s: whole-array write vs element write not reported", proto)
		}
		e = newEnv(t, proto)
		var p leafPoint
		e.parallel(2, siteLoop, func(i int, t *Task) {
			if i == 0 {
				RA(t, &p, siteA)
			} else {
				t.Write(uintptr(unsafe.Pointer(&p.xy[1])), siteX)
			}
		})
		if len(e.reports()) == 0 {
			t.Fatalf("%s: whole-struct read vs field write not reported", proto)
		}
		e = newEnv(t, proto)
		e.parallel(2, siteLoop, func(i int, t *Task) {
			t.Write(uintptr(unsafe.Pointer(&p.xy[i])), siteX)
		})
		if r := e.reports(); len(r) != 0 {
			t.Fatalf("%s: disjoint elements reported: %d", proto, len(r))
		}
	}
}

func TestLeavesDoNotAllocate(t *testing.T) {
	e := newEnv(t, "")
	var a [8]int64
	c := e.enter(1, siteLoop)
	k := c.Fork(0)
	RA(k, &a, siteA) // warm the cells and the layout cache
	if n := testing.AllocsPerRun(100, func() { RA(k, &a, siteA); WA(k, &a, siteA) }); n != 0 {
		t.Errorf("RA/WA: %v allocs per run, want 0", n)
	}
	c.Join()
}

// leafWords and its kin are layouts denseWords tells apart.
type (
	leafWords  struct{ x, y, z float64 }
	leafMixed  struct{ a, b int32 }
	leafPadded struct {
		a int32
		b float64
	}
	leafInner struct {
		p [2]leafWords
		n int64
	}
)

// paddedWords is leafPadded's dense words: 2 where b is aligned to 8
// bytes, none where it follows a at offset 4 (386, arm).
const paddedWords = 2 * (unsafe.Offsetof(leafPadded{}.b) / 8)

// TestDenseWords: a value whose leaves are consecutive words is checked as
// a run of words (leaves); one with a smaller leaf inside a word is not.
func TestDenseWords(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    *layout
		want uintptr
	}{
		{"struct{x, y, z float64}", leavesOf[leafWords](), 3},
		{"[4]int64", leavesOf[[4]int64](), 4},
		{"struct{a int32; b float64}", leavesOf[leafPadded](), paddedWords}, // a's cell is its word's
		{"struct{p [2]leafWords; n int64}", leavesOf[leafInner](), 7},
		{"struct{a, b int32}", leavesOf[leafMixed](), 0},
		{"[3]int32", leavesOf[[3]int32](), 0},
		{"leafPoint", leavesOf[leafPoint](), 0},
		{"struct{}", leavesOf[struct{}](), 0},
	} {
		if tc.l.words != tc.want {
			t.Errorf("%s: words %d, want %d", tc.name, tc.l.words, tc.want)
		}
	}
}

// TestDenseWordsMeetFields: a whole-value read of dense-word structs, one
// and a slice of them (RA, ReadAll), meets a write of a field of another
// element in a concurrent block, at that field's address, as the leaf by
// leaf check did; a write of another element does not.
func TestDenseWordsMeetFields(t *testing.T) {
	for _, proto := range []string{"protocol=waitfree", "protocol=locked"} {
		xs := make([]leafWords, 40)
		for _, whole := range []bool{false, true} {
			e := newEnv(t, proto)
			e.parallel(2, siteLoop, func(i int, t *Task) {
				switch {
				case i == 1:
					t.Write(uintptr(unsafe.Pointer(&xs[17].z)), siteX)
				case whole:
					ReadAll(t, xs[:20], siteA)
				default:
					RA(t, &xs[17], siteA)
				}
			})
			r := e.reports()
			if len(r) != 1 || r[0].addr != uintptr(unsafe.Pointer(&xs[17].z)) {
				t.Fatalf("%s, slice %v: reports %+v, want one at xs[17].z", proto, whole, r)
			}
			e = newEnv(t, proto)
			e.parallel(2, siteLoop, func(i int, t *Task) {
				if i == 0 {
					RA(t, &xs[16], siteA)
				} else {
					t.Write(uintptr(unsafe.Pointer(&xs[17].x)), siteX)
				}
			})
			if r := e.reports(); len(r) != 0 {
				t.Fatalf("%s: a neighbour reported: %+v", proto, r)
			}
		}
	}
}
