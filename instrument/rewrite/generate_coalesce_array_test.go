package rewrite

import "fmt"

// famCoalesceArray is the coalesce family over arrays, on its own: not
// among the families generateFamilies draws, so the programs of the older
// seeds stay as they were.
const famCoalesceArray = numFamilies + 1

// coalesceArrayFunc writes function name of the coalesce family over
// arrays: a type name+"acc" holding h rows of m+1 ints as an array of
// arrays, two or three goroutines, goroutine i running a sequential loop
// that writes row r and reads row r0 ≠ r, both chosen from i by a formula
// of the program, so rows of different goroutines coincide in some
// programs and not in others. The loops are the shapes range over arrays
// makes (rewrite/rangelen.go, coalesce.go's rangeShape and elemCand): a
// range over a row with only its key (the row is not evaluated), with a
// value (the row is copied before the loop), over a pointer to a row
// (read element by element), and a loop over m indexing rows directly or
// through pointers to them, with offsets j+d; a third of them are loop
// nests (coalesceNest).
func (g *gen) coalesceArrayFunc(name string) {
	h, m, n := 2+g.r.IntN(4), 2+g.r.IntN(7), 2+g.r.IntN(2)
	g.p("type %sacc struct {\ntot int\nrows [%d][%d]int\n}\n", name, h, m+1)
	g.p("func %s() {", name)
	g.p("const h, m = %d, %d", h, m)
	g.p("x := &%sacc{}", name)
	j := g.join()
	g.p("%s", j.decl)
	g.p("for i := range %d {", n)
	g.p("%s", j.open)
	g.p("r := (i*%d + %d) %% h", 1+g.r.IntN(3), g.r.IntN(3))
	g.p("r0 := (r + 1 + %d) %% h", g.r.IntN(h-1)) // never r
	g.p("_ = r0")
	g.p("sum := 0")
	g.coalesceArrayLoop(m)
	g.p("_ = sum")
	g.p("%s", j.close)
	g.p("}")
	g.p("%s", j.wait)
	g.p("sink += x.rows[0][0] + x.tot")
	g.p("}\n")
}

// coalesceArrayLoop writes the loop of coalesceArrayFunc; m is the number
// of columns (each row has m+1 elements).
func (g *gen) coalesceArrayLoop(m int) {
	offsets := []int{0, 0, 1}
	dst, src, closing := "x.rows[r]", "x.rows[r0]", "}"
	if g.oneIn(3) { // through pointers to the rows
		g.p("{\nq, q0 := &x.rows[r], &x.rows[r0]\n_, _ = q, q0")
		dst, src, closing = "q", "q0", "}\n}"
	}
	if g.oneIn(3) {
		g.coalesceNest(m, dst, src) // closes its loop
		if closing != "}" {
			g.p("}") // the block of q and q0
		}
		return
	}
	switch g.r.IntN(5) {
	case 0:
		g.p("for j := range %s {", g.pick("x.rows[r]", "x.rows[r0]", "x.rows[0]"))
		offsets = []int{0}
	case 1:
		g.p("for j, v := range x.rows[r0] {") // a copy of the row
		src = ""
		offsets = []int{0}
	case 2:
		g.p("for j, v := range &x.rows[r0] {") // the row's elements, one per iteration
		src = ""
		offsets = []int{0}
	case 3:
		g.p("for j := range &x.rows[%s] {", g.pick("r", "r0"))
		offsets = []int{0}
	default:
		g.p("for j := range m {")
	}
	g.p("_ = j")
	if g.oneIn(4) {
		g.p("if j == %d {\nbreak\n}", g.r.IntN(m))
	}
	d := func() string { return plus("j", offsets[g.r.IntN(len(offsets))]) }
	read := func() string {
		if src == "" {
			return "v"
		}
		return fmt.Sprintf("%s[%s]", src, d())
	}
	switch g.r.IntN(5) {
	case 0, 1:
		g.p("%s[%s] = %s + j", dst, d(), read())
	case 2:
		g.p("%s[%s] += %s", dst, d(), read())
	case 3:
		g.p("%s[%s]++", dst, d())
		g.p("sum += %s", read())
	default:
		g.p("x.tot += %s", read())
	}
	g.p("%s", closing)
}

// coalesceNest writes a loop nest of coalesceArrayLoop (coalesce_nest.go):
// an outer loop, with or without a variable, whose body runs an inner
// range loop that checks nothing in its body (its row r0 copied, or not
// evaluated, or an int, or read element by element through a slice of
// it) and then writes row r at one column or x.tot.
// Row r0 is read by the inner loop's range expression alone, row r
// written by one statement.
func (g *gen) coalesceNest(m int, dst, src string) {
	g.p("row0 := x.rows[r0][:]\n_ = row0")
	if g.oneIn(2) {
		g.p("for range %d {", 1+g.r.IntN(3))
	} else {
		g.p("for k := range %d {\n_ = k", 1+g.r.IntN(3))
	}
	row := "x.rows[r0]"
	if src != "x.rows[r0]" {
		row = "*" + src // a pointer to the row: its copy
	}
	switch g.r.IntN(7) {
	case 5: // a slice of row r0: its elements, each outer iteration
		g.p("for _, v := range row0 {\nsum += v\n}")
	case 6:
		g.p("for k2, v := range row0 {\nif k2 == %d {\ncontinue\n}\nsum += v\n}", g.r.IntN(m))
	case 0:
		g.p("for _, v := range %s {\nsum += v\n}", row)
	case 1:
		g.p("for k2 := range %s {\nsum += k2\n}", g.pick("x.rows[r0]", src))
	case 2:
		g.p("for range m {\nsum++\n}")
	case 3:
		g.p("for k2, v := range %s {\nif k2 == %d {\ncontinue\n}\nsum += v\n}", row, g.r.IntN(m))
	default: // two levels
		g.p("for range %d {\nfor _, v := range %s {\nsum += v\n}\n}", 1+g.r.IntN(2), row)
	}
	if g.oneIn(2) {
		g.p("%s[%d] = sum", dst, g.r.IntN(m+1))
	} else {
		g.p("x.tot += sum")
	}
	g.p("}")
}
