package rt

import (
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// vec and mat are named slice types, as user code declares them.
type (
	vec []int
	mat [][]float64
)

func TestGuardCases(t *testing.T) {
	a, b := make([]int, 8), make([]int, 8)
	buf := make([]int, 10)
	rows := make([][]float64, 4)
	for k := range rows {
		rows[k] = make([]float64, 5)
	}
	shared := make([]float64, 5)
	aliased := [][]float64{shared, make([]float64, 5), shared}
	fl := make([]float64, 10)
	overlapRows := [][]float64{fl[0:6], fl[4:10]}
	words := make([]int64, 4)
	octets := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), 32)
	big := make([]int, 100)
	zs := make([]struct{}, 10)
	za := make([][0]int, 10)
	g := NewGuard

	cases := []struct {
		name string
		g    *Guard
		want bool
	}{
		{"empty guard", g(), true},
		{"one write", GuardW(g(), a), true},
		{"same slice written twice", GuardW(GuardW(g(), a), a), false},
		{"written and read", GuardR(GuardW(g(), a), a), false},
		{"read and written", GuardW(GuardR(g(), a), a), false},
		{"same slice read twice", GuardR(GuardR(g(), a), a), true},
		{"two slices written", GuardW(GuardW(g(), a), b), true},
		{"next written, cur read", GuardR(GuardW(g(), b), a), true},
		{"len 0, cap 8: cap counts", GuardW(GuardW(g(), a[:0]), a[7:]), false},
		{"touching, cap limited", GuardW(GuardW(g(), buf[:5:5]), buf[5:]), true},
		{"touching, written and read", GuardR(GuardW(g(), buf[5:]), buf[:5:5]), true},
		{"overlapping caps", GuardW(GuardW(g(), buf[:5]), buf[5:]), false},
		{"overlapping caps, later one written", GuardW(GuardR(g(), buf[:5]), buf[5:]), false},
		{"overlapping caps, both read", GuardR(GuardR(g(), buf[:5]), buf[5:]), true},
		{"one element shared", GuardW(GuardR(g(), buf[:6:6]), buf[5:]), false},
		{"rows made row by row, written", GuardRowsW(g(), rows), true},
		{"rows written, another slice read", GuardR(GuardRowsW(g(), rows), shared), true},
		{"rows written, one row read too", GuardR(GuardRowsW(g(), rows), rows[2]), false},
		{"rows read, one row written", GuardW(GuardRowsR(g(), rows), rows[3][1:2]), false},
		{"rows read twice", GuardRowsR(GuardRowsR(g(), rows), rows), true},
		{"rows sharing an array, written", GuardRowsW(g(), aliased), false},
		{"rows sharing an array, read", GuardRowsR(g(), aliased), true},
		{"overlapping rows, written", GuardRowsW(g(), overlapRows), false},
		{"overlapping rows, read", GuardRowsR(g(), overlapRows), true},
		// A large read starts first, a small read ends before the write: the
		// sweep must keep the largest end seen, not the last one.
		{"write inside a large earlier read", GuardW(GuardR(GuardR(g(), big), big[10:20:20]), big[50:60:60]), false},
		{"reads nested, write apart", GuardW(GuardR(GuardR(g(), big[:50:50]), big[10:20:20]), big[50:]), true},
		// Spans are bytes: a []byte view of the second word overlaps it.
		{"byte view of a word", GuardW(GuardR(g(), words[1:2:2]), octets[15:16:16]), false},
		{"byte view next to a word", GuardW(GuardR(g(), words[1:2:2]), octets[16:17:17]), true},
		{"nil slices", GuardW(GuardW(GuardR(g(), []int(nil)), []int(nil)), []int(nil)), true},
		{"cap 0", GuardW(GuardW(g(), buf[3:3:3]), buf[3:3:3]), true},
		{"cap 0 inside a written slice", GuardW(GuardW(g(), buf[:5:5]), buf[3:3:3]), true},
		{"empty made slices", GuardW(GuardW(g(), make([]int, 0)), make([]int, 0)), true},
		{"nil matrix", GuardRowsR(GuardRowsW(g(), [][]int(nil)), [][]int(nil)), true},
		{"nil and empty rows", GuardRowsW(g(), [][]int{nil, {}, nil, buf[:0:0]}), true},
		{"zero-size elements", GuardW(GuardW(g(), zs), zs), true},
		{"zero-size arrays", GuardR(GuardW(GuardW(g(), za), za), za[3:]), true},
		{"named slice types", GuardR(GuardW(g(), vec(a)), vec(a)), false},
		{"named matrix type", GuardRowsW(g(), mat(aliased)), false},
	}
	for _, c := range cases {
		if got := c.g.Disjoint(); got != c.want {
			t.Errorf("%s: Disjoint() = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestGuardReused checks that a pooled guard starts empty after a failed
// test, and that the brief's chained form works.
func TestGuardReused(t *testing.T) {
	cur, next := make([]float64, 16), make([]float64, 16)
	for range 100 {
		if GuardW(GuardW(NewGuard(), cur), cur).Disjoint() {
			t.Fatal("same slice written twice: Disjoint")
		}
		if !GuardR(GuardW(NewGuard(), next), cur).Disjoint() {
			t.Fatal("next written, cur read: not Disjoint (a recycled guard kept spans?)")
		}
	}
}

// TestGuardDisjointEmpties checks that Disjoint leaves the guard it pools
// empty, without pointers to the user's arrays.
func TestGuardDisjointEmpties(t *testing.T) {
	a, a2 := make([]int, 4), [1]byte{}
	g := GuardR(GuardW(NewGuard(), a), a)
	g.Disjoint()
	left := slices.ContainsFunc(g.spans[:cap(g.spans)], func(s span) bool { return s != span{} })
	if len(g.spans) != 0 || left {
		t.Errorf("after Disjoint: %d spans; a span left in the buffer: %v", len(g.spans), left)
	}
	m := make([][]byte, maxKeptSpans+1)
	for k := range m {
		m[k] = a2[:]
	}
	g = GuardRowsR(NewGuard(), m)
	if !g.Disjoint() || g.spans != nil {
		t.Errorf("after Disjoint of %d spans: buffer of %d kept", len(m), cap(g.spans))
	}
}

// growStack uses about n KiB of stack, forcing the goroutine's stack to be
// copied to a larger one.
//
//go:noinline
func growStack(n int) byte {
	var pad [1024]byte
	pad[n%1024] = byte(n)
	if n == 0 {
		return pad[0]
	}
	return growStack(n-1) + pad[n%1024]
}

// TestGuardStackArray guards one stack array twice with a stack copy in
// between. Had the guard kept addresses as integers, the array could stay on
// the stack, move, and its two views look apart.
func TestGuardStackArray(t *testing.T) {
	done := make(chan bool)
	go func() { // a new goroutine: a small stack, so growStack copies it
		var arr [64]int
		s := arr[:]
		g := GuardW(NewGuard(), s)
		growStack(256)
		done <- GuardR(g, s).Disjoint()
	}()
	if <-done {
		t.Fatal("one stack array, written and read, across a stack copy: Disjoint")
	}
}

// raceBuild reports whether the test binary was built with -race, under
// which sync.Pool drops items at random (and so allocates).
func raceBuild() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

func TestGuardDoesNotAllocate(t *testing.T) {
	if raceBuild() {
		t.Skip("sync.Pool drops items at random under -race")
	}
	a, b, c := make([]float64, 100), make([]float64, 100), make([]int32, 50)
	m := make([][]float64, 1000)
	for k := range m {
		m[k] = make([]float64, 8)
	}
	var ok bool
	run := func() { ok = GuardR(GuardR(GuardW(NewGuard(), a), b), c).Disjoint() }
	if n := testing.AllocsPerRun(1000, run); n != 0 || !ok {
		t.Errorf("3 slices: %v allocs per run, Disjoint %v", n, ok)
	}
	run = func() { ok = GuardR(GuardRowsW(NewGuard(), m), a).Disjoint() }
	if n := testing.AllocsPerRun(100, run); n != 0 || !ok {
		t.Errorf("1000 rows: %v allocs per run, Disjoint %v", n, ok)
	}
	planes := [][][]float64{m[:500], m[500:]}
	run = func() { ok = GuardRowsWRange(GuardPlanesR(NewGuard(), planes), m, 1, 999).Disjoint() }
	if n := testing.AllocsPerRun(100, run); n != 0 || ok {
		t.Errorf("2 planes of 500 rows read, 998 of them written: %v allocs per run, Disjoint %v", n, ok)
	}
}

// guardOp is one call of a property-test case: a slice or a matrix of rows
// carved from one arena, with the byte ranges [lo, hi) of their backing
// arrays up to cap as the oracle sees them.
type guardOp struct {
	write bool
	rows  bool     // GuardRows*, else Guard*
	elem  string   // element type
	spans [][2]int // byte offsets in the arena; hi == lo for cap 0
	apply func(g *Guard) *Guard
}

func (o guardOp) String() string {
	kind := "R"
	if o.write {
		kind = "W"
	}
	if o.rows {
		kind = "Rows" + kind
	}
	return fmt.Sprintf("Guard%s[%s]%v", kind, o.elem, o.spans)
}

// guardOracle is the definition: no written span shares a byte with another
// span. touch reports whether some written span ends where another starts.
func guardOracle(ops []guardOp) (ok, touch bool) {
	type sp struct {
		lo, hi int
		w      bool
	}
	var all []sp
	for _, o := range ops {
		for _, s := range o.spans {
			all = append(all, sp{s[0], s[1], o.write})
		}
	}
	for i := range all {
		for j := range all {
			x, y := all[i], all[j]
			if i == j || !x.w && !y.w || x.lo == x.hi || y.lo == y.hi {
				continue
			}
			if max(x.lo, y.lo) < min(x.hi, y.hi) {
				return false, touch
			}
			touch = touch || x.hi == y.lo
		}
	}
	return true, touch
}

// guardGen carves random slices from one arena of 256 bytes. bounds holds
// the ends of the spans carved so far for the current case: half the new
// spans start at one and a third end at one, so that spans touching without
// overlapping are common.
type guardGen struct {
	r      *rand.Rand
	arena  []uint64
	bounds []int
}

// carve returns a random slice of the arena with element type T and the byte
// range of its backing array up to cap.
func carve[T any](gg *guardGen) ([]T, [2]int) {
	var zero T
	size, align := int(unsafe.Sizeof(zero)), int(unsafe.Alignof(zero))
	total, r := len(gg.arena)*8, gg.r
	base := unsafe.Pointer(&gg.arena[0])
	if size == 0 {
		return unsafe.Slice((*T)(base), r.IntN(5)), [2]int{0, 0}
	}
	last := (total - size) / align * align // room for one element: checkptr
	start := r.IntN(last/align+1) * align
	if len(gg.bounds) > 0 && r.IntN(2) == 0 {
		b := gg.bounds[r.IntN(len(gg.bounds))]
		start = min((b+align-1)/align*align, last)
	}
	maxCap := min((total-start)/size, 12)
	c := 0
	if r.IntN(10) > 0 { // cap 0 one time in ten
		c = 1 + r.IntN(maxCap)
		if len(gg.bounds) > 0 && r.IntN(3) == 0 {
			if e := gg.bounds[r.IntN(len(gg.bounds))]; e > start && (e-start)/size > 0 {
				c = min((e-start)/size, maxCap)
			}
		}
	}
	p := unsafe.Pointer(uintptr(base) + uintptr(start))
	s := unsafe.Slice((*T)(p), c)[:r.IntN(c+1):c]
	gg.bounds = append(gg.bounds, start, start+c*size)
	return s, [2]int{start, start + c*size}
}

// carveOp returns a random Guard* or GuardRows* call on slices of T.
func carveOp[T any](gg *guardGen, elem string, write, rows bool) guardOp {
	o := guardOp{write: write, rows: rows, elem: elem}
	if !rows {
		s, sp := carve[T](gg)
		o.spans = [][2]int{sp}
		if write {
			o.apply = func(g *Guard) *Guard { return GuardW(g, s) }
		} else {
			o.apply = func(g *Guard) *Guard { return GuardR(g, s) }
		}
		return o
	}
	m := make([][]T, gg.r.IntN(5))
	for k := range m {
		var sp [2]int
		m[k], sp = carve[T](gg)
		o.spans = append(o.spans, sp)
	}
	if write {
		o.apply = func(g *Guard) *Guard { return GuardRowsW(g, m) }
	} else {
		o.apply = func(g *Guard) *Guard { return GuardRowsR(g, m) }
	}
	return o
}

// TestGuardProperty compares Disjoint with the O(n²) oracle on 20,000
// random guards: up to 7 calls each, slices and row groups of several
// element types carved with random start, length and capacity from one
// arena, read or written.
func TestGuardProperty(t *testing.T) {
	const cases = 20000
	gg := &guardGen{r: rand.New(rand.NewPCG(1, 2)), arena: make([]uint64, 32)}
	r := gg.r
	kinds := []func(write, rows bool) guardOp{
		func(w, rows bool) guardOp { return carveOp[byte](gg, "byte", w, rows) },
		func(w, rows bool) guardOp { return carveOp[uint32](gg, "uint32", w, rows) },
		func(w, rows bool) guardOp { return carveOp[uint64](gg, "uint64", w, rows) },
		func(w, rows bool) guardOp { return carveOp[[3]byte](gg, "[3]byte", w, rows) },
		func(w, rows bool) guardOp { return carveOp[[2]uint64](gg, "[2]uint64", w, rows) },
		func(w, rows bool) guardOp { return carveOp[struct{}](gg, "struct{}", w, rows) },
	}
	disjoint, touching, rowCases := 0, 0, 0
	for i := range cases {
		gg.bounds = gg.bounds[:0]
		ops := make([]guardOp, r.IntN(8))
		pWrite := []int{2, 5, 8}[i%3] // in tenths: mostly reads, even, mostly writes
		for k := range ops {
			ops[k] = kinds[r.IntN(len(kinds))](r.IntN(10) < pWrite, r.IntN(5) == 0)
			if ops[k].rows {
				rowCases++
			}
		}
		g := NewGuard()
		for _, o := range ops {
			g = o.apply(g)
		}
		got := g.Disjoint()
		want, touch := guardOracle(ops)
		if got != want {
			var b strings.Builder
			for _, o := range ops {
				fmt.Fprintf(&b, "\n\t%v", o)
			}
			t.Fatalf("case %d: Disjoint() = %v, oracle %v; calls (byte spans in the arena):%s", i, got, want, b.String())
		}
		if got {
			disjoint++
			if touch {
				touching++
			}
		}
	}
	t.Logf("%d cases: %d disjoint (%d with a written span touching another), %d not; %d row groups",
		cases, disjoint, touching, cases-disjoint, rowCases)
	if disjoint < cases/5 || cases-disjoint < cases/5 || touching < cases/40 {
		t.Errorf("unbalanced cases: %d of %d disjoint, %d touching", disjoint, cases, touching)
	}
}

var sinkBool bool

// BenchmarkGuard measures a guard of three slices (a stencil's next, cur
// and coefficients) and of the rows of a 1000-row matrix plus one slice,
// with the rows in allocation order and shuffled (the sort's worst case).
func BenchmarkGuard(b *testing.B) {
	b.Run("3slices", func(b *testing.B) {
		cur, next, coef := make([]float64, 1024), make([]float64, 1024), make([]float64, 3)
		b.ReportAllocs()
		for b.Loop() {
			sinkBool = GuardR(GuardR(GuardW(NewGuard(), next), cur), coef).Disjoint()
		}
	})
	m := make([][]float64, 1000)
	for k := range m {
		m[k] = make([]float64, 16)
	}
	x := make([]float64, 16)
	rows := func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkBool = GuardR(GuardRowsW(NewGuard(), m), x).Disjoint()
		}
		if !sinkBool {
			b.Fatal("rows made row by row: not Disjoint")
		}
	}
	b.Run("1000rows", rows)
	rand.New(rand.NewPCG(3, 4)).Shuffle(len(m), func(i, j int) { m[i], m[j] = m[j], m[i] })
	b.Run("1000rows-shuffled", rows)
}
