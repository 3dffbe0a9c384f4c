package rewrite

import (
	"fmt"
	"strings"
)

// famCoalesceFlat is the flat half of the coalesce family, on its own: not
// among the families generateFamilies draws (coalesceFunc draws it half the
// time), for tests that want only flat loops.
const famCoalesceFlat = numFamilies

// coalesceFlatFunc writes function name of the coalesce family over a flat
// matrix f of h rows of w float64 (the ordinary layout f[r*w+j]), and a
// type name+"acc": two or three goroutines, goroutine i running sequential
// loops that write row r and read row r0 ≠ r, both chosen from i by a
// formula of the program, so rows of different goroutines coincide in some
// programs and not in others. The loop shapes are those check coalescing
// turns into spans with symbolic offsets (coalesce_affine.go,
// coalesce_partial.go): row r written and row r0 read through r*w+j+d and
// r0*w+j+d' (two symbolic parts, rt.SpansApart), reads under an
// `if … { continue }` (kept per element, the write before it moved), calls
// to math functions, a sum into a local or into the shared x.tot, a
// gemm-like pair of loops over k and j reading rows of a read-only g, and
// loops that break (their checks stay).
//
// As in coalesceFunc, each goroutine reaches an element from one site at
// most (the write of row r is one statement, reads are of row r0 or g).
func (g *gen) coalesceFlatFunc(name string) {
	h, w, n := 2+g.r.IntN(5), 3+g.r.IntN(8), 2+g.r.IntN(2)
	g.p("type %sacc struct {\ntot float64\n}\n", name)
	g.p("func %s() {", name)
	if g.oneIn(2) {
		g.p("const h, w = %d, %d", h, w)
	} else {
		g.p("h, w := %d, %d", h, w)
	}
	g.p("f := make([]float64, h*w)")
	g.p("gm := make([]float64, h*w)")
	g.p("for k := range gm {\ngm[k] = float64(k %% 5)\n}")
	g.p("x := &%sacc{}", name)
	j := g.join()
	g.p("%s", j.decl)
	g.p("for i := range %d {", n)
	g.p("%s", j.open)
	g.p("r := (i*%d + %d) %% h", 1+g.r.IntN(3), g.r.IntN(3))
	g.p("r0 := (r + 1 + %d) %% h", g.r.IntN(h-1)) // never r
	g.p("sum := 0.0")
	g.p("_ = r0")
	g.coalesceFlatLoop()
	g.p("_ = sum")
	g.p("%s", j.close)
	g.p("}")
	g.p("%s", j.wait)
	g.p("sink += int(f[0] + x.tot)")
	g.p("}\n")
}

// coalesceFlatLoop writes the loop of coalesceFlatFunc.
func (g *gen) coalesceFlatLoop() {
	lo, hi, offsets := "0", "w", []int{0}
	if g.oneIn(2) {
		lo, hi, offsets = "1", "w-1", []int{-1, 0, 1}
	}
	d := func() int { return offsets[g.r.IntN(len(offsets))] }
	row := func(r string, d int) string { return plus(r+"*w+j", d) }
	fn := g.pick("math.Abs", "math.Sqrt", "min(1, ", "")
	g.math = g.math || strings.HasPrefix(fn, "math.")
	call := func(e string) string {
		switch fn {
		case "":
			return e
		case "min(1, ":
			return fn + e + ")"
		}
		return fn + "(" + e + ")"
	}
	if g.oneIn(4) { // gemm-like: row r += row k of gm, for every k
		g.p("for k := range h {")
		g.p("for j := %s; j < %s; j++ {", lo, hi)
		g.p("f[%s] += %s * gm[%s]", row("r", 0), call("gm[k%w+r*w]"), row("k", d()))
		g.p("}\n}")
		return
	}
	if g.oneIn(2) {
		g.p("for j := %s; j < %s; j++ {", lo, hi)
	} else {
		g.p("for j := range %s {", hi)
		lo = "0"
		if len(offsets) > 1 {
			offsets = []int{0} // j from 0: row r0*w+j-1 would leave the matrix for r0 = 0
		}
	}
	if g.oneIn(4) {
		g.p("if j == %d {\nbreak\n}", g.r.IntN(3))
	}
	write := row("r", d())
	switch g.r.IntN(4) {
	case 0: // the write moves, the read after the branch stays
		g.p("f[%s] = float64(j)", write)
		g.p("if j%%%d == 0 {\ncontinue\n}", 2+g.r.IntN(2))
		g.p("sum += %s", call(fmt.Sprintf("f[%s]", row("r0", d()))))
	case 1:
		g.p("x.tot += %s", call(fmt.Sprintf("f[%s]", row("r0", d()))))
	case 2:
		g.p("f[%s] += %s", write, call(fmt.Sprintf("f[%s]", row("r0", d()))))
	default:
		g.p("v := %s", call(fmt.Sprintf("f[%s]", row("r0", d()))))
		g.p("if v > 2 {\nv = 2\n}")
		g.p("f[%s] = v + 1", write)
	}
	g.p("}")
}
