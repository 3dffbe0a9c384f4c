package rewrite

import (
	"fmt"
	"go/format"
	"math/rand/v2"
	"strings"
)

// oneP is the first statement of a generated main: the program's
// goroutines run one at a time, in the same order in every run and in both
// builds (short of a preemption). The locked protocol reports every racy
// location, but which pair of sites it names for one depends on the order
// of the accesses when a goroutine reaches the location from several sites
// (its later access supersedes its earlier one). Measured on the
// conservative build of a generated loop whose goroutines write a[j],
// a[j+1], then a[j] three times more: 4 pairs in 189 of 200 parallel runs,
// 1 pair in the other 11; and 1 of 30 generated programs differed between
// its pruned and conservative builds, both correct, when run in parallel
// on a loaded machine. On one P the builds make the same accesses in the
// same order but for the pruned ones, so the pairs are comparable, and a
// conservative pair that names a wrongly pruned access is missing from the
// pruned build's reports.
const oneP = "runtime.GOMAXPROCS(1)"

// generateLoops writes a main package with n functions, each one parallel
// loop of 10 iterations over a fresh slice of 40 elements (the affine
// family, see writeAffine).
func generateLoops(r *rand.Rand, n int) string {
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n\t\"runtime\"\n\t\"sync\"\n)\n\nvar sink int\n\n")
	for f := range n {
		writeAffine(&b, r, fmt.Sprintf("f%d", f))
	}
	b.WriteString("func main() {\n\t" + oneP + "\n")
	for f := range n {
		fmt.Fprintf(&b, "\tf%d()\n", f)
	}
	b.WriteString("}\n")
	return b.String()
}

// writeAffine writes function name: one parallel loop of 10 iterations over
// a fresh slice a of 40 elements, whose goroutines read and write a at
// affine subscripts k*i+d (one form in the whole loop half of the time,
// mixed forms otherwise) and through an index array. It reports whether the
// loop has one form only: then the independence proof covers a.
func writeAffine(b *strings.Builder, r *rand.Rand, name string) (oneForm bool) {
	fmt.Fprintf(b, "func %s() {\n\ta := make([]int, 40)\n\tidx := []int{", name)
	for i := range 10 {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(b, r.IntN(40))
	}
	// Reads add into sink2, a variable of each goroutine: declared in the body.
	b.WriteString("}\n\t_ = idx\n\tvar wg sync.WaitGroup\n\tfor i := range 10 {\n\t\twg.Go(func() {\n\t\t\tsink2 := 0\n")
	oneForm = r.IntN(2) == 0
	k, d := 1+r.IntN(3), r.IntN(4)
	for range 1 + r.IntN(3) {
		if !oneForm {
			k, d = 1+r.IntN(3), r.IntN(4)
		}
		sub := fmt.Sprintf("%d*i+%d", k, d)
		if !oneForm && r.IntN(4) == 0 {
			sub = "idx[i]"
		}
		switch r.IntN(3) {
		case 0:
			fmt.Fprintf(b, "\t\t\ta[%s] = i\n", sub)
		case 1:
			fmt.Fprintf(b, "\t\t\tsink2 += a[%s]\n", sub)
		default:
			fmt.Fprintf(b, "\t\t\ta[%s]++\n", sub)
		}
	}
	b.WriteString("\t\t\t_ = sink2\n\t\t})\n\t}\n\twg.Wait()\n\tsink += a[0]\n}\n\n")
	return oneForm
}

// The program families of generateFamilies. Every family is the shape a
// proof of the static stage targets (or will), in safe and racy variants
// that differ from each other only a little, so a proof that is too
// generous prunes a check that finds a race.
const (
	famAffine   = iota // a[k*i+d], writeAffine
	famChunks          // chunked loops over one or two slices, chunkFunc
	famFlat            // 2-D arrays flattened as a[i*w+j], flatFunc
	famParams          // slices passed to a function holding the loop, paramsFunc
	famRows            // [][]int rows, rowsFunc
	famFields          // a struct pointer's slice and scalar fields, fieldsFunc
	famCoalesce        // sequential loops over rows inside goroutines, coalesceFunc
	numFamilies
)

var familyNames = [numFamilies]string{"affine", "chunks", "flat", "params", "rows", "fields", "coalesce"}

// generated is a program of generateFamilies.
type generated struct {
	src string
	// funcs names each function main calls and its family; the last is
	// the planted race.
	funcs []string
	// affineProof is set when an affine function has one subscript form
	// only: the independence proof applies, so the pruned build must
	// prune something.
	affineProof bool
}

// generateFamilies writes a main package with one function of each family
// in random order, up to two more of random families, and last a chunked
// loop with a planted race (a[j] written and a[j+1] accessed across a chunk
// boundary), so every program has at least one report. Each function makes
// its own slices and joins its goroutines before it returns; main calls
// them in turn. Subscripts stay in range, no control flow depends on a
// value a racing access could change, and every construct has at most a
// few dozen goroutines: every run takes the same path, whatever the proofs
// decide. The source is gofmt'ed.
func generateFamilies(r *rand.Rand) generated {
	order := r.Perm(numFamilies)
	for range r.IntN(3) {
		order = append(order, r.IntN(numFamilies))
	}
	return generateProgram(r, order)
}

// generateProgram writes a main package with one function of each family
// of order, in turn, then the planted race of generateFamilies.
func generateProgram(r *rand.Rand, order []int) generated {
	g := &gen{r: r}
	var out generated
	for k, fam := range order {
		name := fmt.Sprintf("f%d", k)
		switch fam {
		case famAffine:
			g.sync = true
			if writeAffine(&g.b, r, name) {
				out.affineProof = true
			}
		case famChunks:
			g.chunkFunc(name, false)
		case famFlat:
			g.flatFunc(name)
		case famParams:
			g.paramsFunc(name)
		case famRows:
			g.rowsFunc(name)
		case famFields:
			g.fieldsFunc(name)
		case famCoalesce:
			g.coalesceFunc(name)
		case famCoalesceFlat:
			g.coalesceFlatFunc(name)
		case famCoalesceArray:
			g.coalesceArrayFunc(name)
		}
		switch fam {
		case famCoalesceFlat:
			out.funcs = append(out.funcs, name+" coalesce flat")
			continue
		case famCoalesceArray:
			out.funcs = append(out.funcs, name+" coalesce array")
			continue
		}
		out.funcs = append(out.funcs, name+" "+familyNames[fam])
	}
	planted := fmt.Sprintf("f%d", len(order))
	g.chunkFunc(planted, true)
	out.funcs = append(out.funcs, planted+" planted race")

	var src strings.Builder
	src.WriteString("package main\n\nimport (\n\"runtime\"\n")
	if g.sync {
		src.WriteString("\"sync\"\n")
	}
	if g.errgroup {
		src.WriteString("\"golang.org/x/sync/errgroup\"\n")
	}
	if g.math {
		src.WriteString("\"math\"\n")
	}
	src.WriteString(")\n\nvar sink int\n\n")
	src.WriteString(g.b.String())
	src.WriteString("func main() {\n" + oneP + "\n")
	for k := range len(order) + 1 {
		fmt.Fprintf(&src, "f%d()\n", k)
	}
	src.WriteString("}\n")
	formatted, err := format.Source([]byte(src.String()))
	if err != nil {
		panic(fmt.Sprintf("generated program does not parse: %v\n%s", err, src.String()))
	}
	out.src = string(formatted)
	return out
}

// gen accumulates the declarations of a generated program. Indentation is
// left to gofmt.
type gen struct {
	r        *rand.Rand
	b        strings.Builder
	sync     bool // some function uses a sync.WaitGroup
	errgroup bool // some function uses an errgroup.Group
	math     bool // some function calls package math
}

// p writes one line.
func (g *gen) p(format string, args ...any) {
	fmt.Fprintf(&g.b, format+"\n", args...)
}

func (g *gen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// oneIn is true with probability 1/n.
func (g *gen) oneIn(n int) bool { return g.r.IntN(n) == 0 }

// plus is e+d as source.
func plus(e string, d int) string {
	switch {
	case d > 0:
		return fmt.Sprintf("%s+%d", e, d)
	case d < 0:
		return fmt.Sprintf("%s-%d", e, -d)
	}
	return e
}

// join is how a construct forks and joins its goroutines: the declaration
// of the sync object, the text before and after a goroutine's body, and
// the wait.
type join struct{ decl, open, close, wait string }

// join picks one of the ways the static stage recognises: wg.Go, go with
// wg.Add and a deferred wg.Done, or an errgroup's Go.
func (g *gen) join() join {
	switch g.r.IntN(4) {
	case 0, 1:
		g.sync = true
		return join{"var wg sync.WaitGroup", "wg.Go(func() {", "})", "wg.Wait()"}
	case 2:
		g.sync = true
		return join{"var wg sync.WaitGroup", "wg.Add(1)\ngo func() {\ndefer wg.Done()", "}()", "wg.Wait()"}
	}
	g.errgroup = true
	return join{"var g errgroup.Group", "g.Go(func() error {", "return nil\n})", "if err := g.Wait(); err != nil {\npanic(err)\n}"}
}

// access is one statement touching x[ix]: a write of val, a read into the
// goroutine's own sum, or a read-modify-write.
func (g *gen) access(x, ix, val string) string {
	switch g.r.IntN(4) {
	case 0:
		return fmt.Sprintf("%s[%s] = %s", x, ix, val)
	case 1:
		return fmt.Sprintf("sum += %s[%s]", x, ix)
	case 2:
		return fmt.Sprintf("%s[%s] += %s", x, ix, val)
	}
	return fmt.Sprintf("%s[%s]++", x, ix)
}

// accesses writes 1 to 3 accesses of the slices in env at subscript ix or
// ix+1. With planted, env[0][ix] is written first and env[0][ix+1] is
// read or written: neighbouring chunks race.
func (g *gen) accesses(env []string, ix string, planted bool) {
	if planted {
		g.p("%s[%s] = %s", env[0], ix, ix)
		if g.oneIn(2) {
			g.p("sum += %s[%s]", env[0], plus(ix, 1))
		} else {
			g.p("%s[%s] = %s", env[0], plus(ix, 1), ix)
		}
	}
	for range 1 + g.r.IntN(3) {
		d := 0
		if g.oneIn(4) {
			d = 1
		}
		g.p("%s", g.access(g.pick(env...), plus(ix, d), ix))
	}
}

// chunkFunc writes function name: a chunked loop over a := make([]int,
// n+3) and sometimes a second slice b (a distinct make, or a[1:]).
func (g *gen) chunkFunc(name string, planted bool) {
	n := 20 + g.r.IntN(29)
	g.p("func %s() {", name)
	switch g.r.IntN(3) {
	case 0:
		g.p("const n = %d", n)
		g.p("a := make([]int, n+3)")
	case 1:
		g.p("a := make([]int, %d)", n+3)
		g.p("n := len(a) - 3")
	default:
		g.p("n := %d", n)
		g.p("a := make([]int, n+3)")
	}
	if g.oneIn(3) {
		g.p("for i := range a {\na[i] = i\n}")
	}
	env := []string{"a"}
	if !planted {
		switch g.r.IntN(4) {
		case 0:
			g.p("b := make([]int, n+2)")
			env = append(env, "b")
		case 1:
			g.p("b := a[1:]")
			env = append(env, "b")
		}
	}
	g.chunkLoop(env, "n", n, planted)
	g.p("sink += a[0] + a[n]")
	if len(env) > 1 {
		g.p("sink += b[0]") // b may be unused in the loop; a use after the join keeps it legal Go
	}
	g.p("}\n")
}

// chunkLoop writes a construct that splits 0..n among goroutines, in one
// of three shapes:
//
//	for c := range chunks { … for j := c*n/chunks; j < (c+1)*n/chunks; j++ … }
//	for lo := 0; lo < n; lo += block { … for i := lo; i < min(lo+block, n); i++ … }
//	for c := range chunks { … range x[c*n/chunks:(c+1)*n/chunks] … }
//
// A quarter of the loops stretch each chunk by one element (neighbouring
// chunks overlap), and accesses at j+1 reach into the next chunk: some of
// the loops race, some do not. Every slice of env must have at least n+2
// elements. minN is the least value n can have when the loop runs (0 if
// unknown); a planted loop needs two chunks at least.
func (g *gen) chunkLoop(env []string, n string, minN int, planted bool) {
	j := g.join()
	g.p("%s", j.decl)
	ext := ""
	if !planted && g.oneIn(4) {
		ext = "+1"
	}
	chunks := func() {
		k := 2 + g.r.IntN(5)
		if g.oneIn(2) {
			g.p("const chunks = %d", k)
		} else {
			g.p("chunks := %d", k)
		}
	}
	shape := g.r.IntN(3)
	if planted {
		shape = g.r.IntN(2)
	}
	switch shape {
	case 0:
		chunks()
		g.p("for c := range chunks {")
		lo, hi := fmt.Sprintf("c*%s/chunks", n), fmt.Sprintf("(c+1)*%s/chunks%s", n, ext)
		bounds := g.r.IntN(3)
		if bounds == 1 { // computed by the loop, captured by the goroutine
			g.p("lo, hi := %s, %s", lo, hi)
			lo, hi = "lo", "hi"
		}
		g.p("%s", j.open)
		if bounds == 2 { // computed by the goroutine
			g.p("lo, hi := %s, %s", lo, hi)
			lo, hi = "lo", "hi"
		}
		g.p("sum := 0")
		g.p("for j := %s; j < %s; j++ {", lo, hi)
		g.accesses(env, "j", planted)
		g.p("}")
	case 1:
		block := 2 + g.r.IntN(5)
		if minN >= 4 {
			block = 2 + g.r.IntN(minN/2-1) // ≤ minN/2: two chunks at least
		}
		if g.oneIn(2) {
			g.p("const block = %d", block)
		} else {
			g.p("block := %d", block)
		}
		g.p("for lo := 0; lo < %s; lo += block {", n)
		cond := fmt.Sprintf("i < min(lo+block%s, %s)", ext, n)
		switch g.r.IntN(3) {
		case 1:
			cond = fmt.Sprintf("i < lo+block%s && i < %s", ext, n)
		case 2:
			g.p("hi := min(lo+block%s, %s)", ext, n)
			cond = "i < hi"
		}
		g.p("%s", j.open)
		g.p("sum := 0")
		g.p("for i := lo; %s; i++ {", cond)
		g.accesses(env, "i", planted)
		g.p("}")
	default:
		chunks()
		g.p("for c := range chunks {")
		g.p("%s", j.open)
		g.p("sum := 0")
		lo := fmt.Sprintf("c*%s/chunks", n)
		x := g.pick(env...)
		part := fmt.Sprintf("%s[%s:(c+1)*%s/chunks%s]", x, lo, n, ext)
		switch g.r.IntN(3) {
		case 0: // read only
			g.p("for _, v := range %s {\nsum += v\n}", part)
		case 1: // read, and write at the same or the next position
			y := g.pick(env...)
			g.p("for k, v := range %s {", part)
			g.p("%s[%s] = v + sum", y, plus(lo+"+k", g.r.IntN(2)))
			g.p("}")
		default: // write through the subslice
			g.p("part := %s", part)
			g.p("for k := range part {")
			g.p("%s", g.pick("part[k] += k", "part[k] = sum", "part[k]++", "sum += part[k]"))
			g.p("}")
		}
	}
	g.p("_ = sum")
	g.p("%s", j.close)
	g.p("}")
	g.p("%s", j.wait)
}

// flatFunc writes function name: a loop over the rows of an h×m grid stored
// row by row with a border, a[i*w+j] with w := m+2, whose goroutines touch
// their row at j = 1..m (safe), a wider range that reaches into the border
// or a neighbouring row, and the rows above or below.
func (g *gen) flatFunc(name string) {
	h, m := 2+g.r.IntN(7), 2+g.r.IntN(9)
	g.p("func %s() {", name)
	if g.oneIn(2) {
		g.p("const h, m = %d, %d", h, m)
	} else {
		g.p("h, m := %d, %d", h, m)
	}
	g.p("w := m + 2")
	g.p("a := make([]int, (h+3)*w)")
	env := []string{"a"}
	if g.oneIn(2) {
		g.p("b := make([]int, (h+3)*w)")
		env = append(env, "b")
	}
	j := g.join()
	g.p("%s", j.decl)
	rows := []int{0, 0, 1, -1}
	if g.oneIn(2) {
		g.p("for i := 1; i <= h; i++ {")
	} else {
		g.p("for i := range h {")
		rows = []int{0, 0, 1} // row i-1 would be -1 for i = 0
	}
	g.p("%s", j.open)
	g.p("sum := 0")
	start := g.r.IntN(2)
	g.p("for j := %d; j <= %s; j++ {", start, plus("m", []int{0, 0, 1, 2, 3}[g.r.IntN(5)]))
	for range 1 + g.r.IntN(3) {
		row := map[int]string{0: "i*w", 1: "(i+1)*w", -1: "(i-1)*w"}[rows[g.r.IntN(len(rows))]]
		col := []int{0, 0, 1, -1}[g.r.IntN(4)]
		if start == 0 && col < 0 {
			col = 0
		}
		g.p("%s", g.access(g.pick(env...), plus(row+"+j", col), "j"))
	}
	g.p("}")
	g.p("_ = sum")
	g.p("%s", j.close)
	g.p("}")
	g.p("%s", j.wait)
	g.p("sink += a[w+1]")
	if len(env) > 1 {
		g.p("sink += b[w+1]")
	}
	g.p("}\n")
}

// paramsFunc writes function name and the function it calls, name+"kernel"
// (dst, src []int), which holds the loop: over 0..n with n :=
// min(len(dst), len(src)) - 2, one goroutine per index or chunked. name
// calls the kernel one to three times with distinct slices, one slice twice
// (aliasing), overlapping or neighbouring subslices of one array, or from
// the goroutines of a loop of its own (nested).
func (g *gen) paramsFunc(name string) {
	kernel := name + "kernel"
	g.p("func %s(dst, src []int) {", kernel)
	g.p("n := min(len(dst), len(src)) - 2")
	if g.oneIn(2) {
		j := g.join()
		g.p("%s", j.decl)
		g.p("%s", g.pick("for i := range n {", "for i := 0; i < n; i++ {"))
		g.p("%s", j.open)
		g.p("sum := 0")
		for range 1 + g.r.IntN(3) {
			g.p("%s", g.access(g.pick("dst", "dst", "src"), plus("i", []int{0, 0, 1, 2}[g.r.IntN(4)]), "i"))
		}
		g.p("_ = sum")
		g.p("%s", j.close)
		g.p("}")
		g.p("%s", j.wait)
	} else {
		g.chunkLoop([]string{"dst", "src"}, "n", 0, false)
	}
	g.p("}\n")

	g.p("func %s() {", name)
	g.p("const l = %d", 16+g.r.IntN(25))
	g.p("x := make([]int, l)")
	g.p("y := make([]int, l+%d)", g.r.IntN(3))
	g.p("buf := make([]int, 2*l)")
	for range 1 + g.r.IntN(3) {
		if g.oneIn(4) {
			g.sync = true
			g.p("{")
			g.p("var wg sync.WaitGroup")
			g.p("for c := range 2 {")
			g.p("wg.Go(func() {")
			g.p("_ = c")
			g.p("%s(%s)", kernel, g.pick("x[c*l/2:(c+1)*l/2], y", "x[c*l/2:(c+1)*l/2], x[c*l/2:(c+1)*l/2]", "x, y", "x, x", "buf[c*l:(c+1)*l], buf[(1-c)*l:(2-c)*l]"))
			g.p("})")
			g.p("}")
			g.p("wg.Wait()")
			g.p("}")
			continue
		}
		g.p("%s(%s)", kernel, g.pick("x, y", "x, x", "y, x", "buf[:l], buf[l/2:]", "buf[1:], buf[:l]", "buf[:l], buf[l:]", "buf[l/2:], buf[:l]"))
	}
	g.p("sink += x[0] + y[0] + buf[0]")
	g.p("}\n")
}

// rowsFunc writes function name: rows a and c of type [][]int, and a loop
// whose goroutine i updates row c[i] from row a[i] (or a[(i+1)%h]). c's
// rows are distinct makes, distinct but for c[k] = c[0], a's own rows, or
// a's rows shifted by one; a's rows may share an array too.
func (g *gen) rowsFunc(name string) {
	h, m := 2+g.r.IntN(7), 2+g.r.IntN(9)
	g.p("func %s() {", name)
	g.p("h, m := %d, %d", h, m)
	g.p("a := make([][]int, h)")
	g.p("for i := range a {\na[i] = make([]int, m)\n}")
	if g.oneIn(4) {
		g.p("a[1] = a[0]")
	}
	switch g.r.IntN(5) {
	case 0, 1:
		g.p("c := make([][]int, h)")
		g.p("for i := range c {\nc[i] = make([]int, m)\n}")
	case 2:
		g.p("c := make([][]int, h)")
		g.p("for i := range c {\nc[i] = make([]int, m)\n}")
		g.p("c[%s] = c[0]", g.pick("1", "h-1"))
	case 3:
		g.p("c := a")
	default:
		g.p("c := make([][]int, h)")
		g.p("for i := range c {\nc[i] = a[(i+1)%%h]\n}")
	}
	j := g.join()
	g.p("%s", j.decl)
	g.p("%s", g.pick("for i := range c {", "for i := range h {", "for i := range len(c) {", "for i := 0; i < len(c); i++ {"))
	g.p("%s", j.open)
	from := g.pick("a[i]", "a[i]", "a[(i+1)%h]")
	switch g.r.IntN(3) {
	case 0:
		g.p("row := c[i]")
		g.p("for j := range row {")
		g.p("row[j] %s %s[j]", g.pick("+=", "=", "-="), from)
		g.p("}")
	case 1:
		g.p("for j := range c[i] {")
		g.p("c[i][j] %s %s[j]", g.pick("+=", "=", "-="), from)
		g.p("}")
	default:
		g.p("row, src := c[i], %s", from)
		g.p("for j, v := range src {")
		g.p("row[j] %s v", g.pick("+=", "="))
		g.p("}")
	}
	g.p("%s", j.close)
	g.p("}")
	g.p("%s", j.wait)
	g.p("sink += c[0][0] + a[h-1][m-1]")
	g.p("}\n")
}

// fieldsFunc writes function name and a struct type name+"state" with a
// slice field acc and a scalar field pos: a loop over 0..n whose goroutines
// write through the struct pointer s (s.acc[i], s.acc[i+1], s.pos, a
// method), read src (filled before the loop, mostly never written in it),
// and write through pointers to elements of a []state. s.acc is a make of
// its own, src itself or src[1:]; a second pointer t may be s, share s.acc
// or have its own.
func (g *gen) fieldsFunc(name string) {
	state := name + "state"
	g.p("type %s struct {\nacc []int\npos int\n}\n", state)
	g.p("func (s *%s) put(k, v int) {\ns.acc[k] = v\n}\n", state)
	g.p("func %s() {", name)
	n := 2 + g.r.IntN(30)
	if g.oneIn(2) {
		g.p("const n = %d", n)
	} else {
		g.p("n := %d", n)
	}
	g.p("src := make([]int, n+2)")
	g.p("for i := range src {\nsrc[i] = i %% 7\n}")
	g.p("s := &%s{acc: %s}", state, g.pick("make([]int, n+1)", "make([]int, n+1)", "src", "src[1:]"))
	g.p("t := %s", g.pick("s", fmt.Sprintf("&%s{acc: s.acc}", state), fmt.Sprintf("&%s{acc: make([]int, n+1)}", state)))
	g.p("ps := make([]%s, n+1)", state)
	j := g.join()
	g.p("%s", j.decl)
	g.p("%s", g.pick("for i := range n {", "for i := 0; i < n; i++ {"))
	g.p("%s", j.open)
	g.p("sum := i") // uses i, whichever accesses follow
	for range 1 + g.r.IntN(3) {
		ix := plus("i", g.r.IntN(2))
		switch g.r.IntN(8) {
		case 0, 1, 2:
			g.p("%s", g.access("s.acc", ix, "i"))
		case 3:
			g.p("%s", g.access("t.acc", ix, "i"))
		case 4:
			if g.oneIn(6) {
				g.p("%s", g.access("src", ix, "i"))
			} else {
				g.p("sum += src[%s]", ix)
			}
		case 5:
			if g.oneIn(3) {
				g.p("%s", g.pick("s.pos = i", "s.pos++"))
			} else {
				g.p("sum += s.pos")
			}
		case 6:
			g.p("{\np := &ps[%s]\n%s\n}", g.pick(ix, ix, "i/2"), g.pick("p.pos = i", "p.pos++", "sum += p.pos"))
		default:
			g.p("s.put(%s, i)", ix)
		}
	}
	g.p("_ = sum")
	g.p("%s", j.close)
	g.p("}")
	g.p("%s", j.wait)
	g.p("sink += s.acc[0] + s.pos + t.acc[0] + ps[0].pos")
	g.p("}\n")
}

// coalesceFunc writes function name and a type name+"acc": a loop of two
// or three goroutines over h rows of m+1 elements, goroutine i running a
// sequential loop that writes row r and reads row r0 ≠ r, both chosen from
// i by a formula of the program, so rows of different goroutines coincide
// in some programs and not in others: a[r][j+d] = a[r0][j+d'] + j,
// a[r][j+d] += src[j+d'], sums into a variable of the goroutine or into
// the shared x.tot; over j in [0, m) or [1, m), range m, range over a row,
// or over src := a[r0][k:]. A loop may break at a constant j: its checks
// stay in the loop. The rewriter moves the checks of the other loops
// before them (coalesce.go).
//
// Each goroutine reaches an element from one site at most, so the pairs of
// sites reported do not depend on where a goroutine is descheduled (a
// report is a write to standard error, where the one P may go to another
// goroutine): a later access of a goroutine superseding its earlier one
// would name other pairs in such runs, in both builds alike.
func (g *gen) coalesceFunc(name string) {
	if g.oneIn(2) {
		g.coalesceFlatFunc(name) // the flat shapes, generate_coalesce_test.go
		return
	}
	h, m, n := 2+g.r.IntN(5), 2+g.r.IntN(9), 2+g.r.IntN(2)
	g.p("type %sacc struct {\ntot int\n}\n", name)
	g.p("func %s() {", name)
	if g.oneIn(2) {
		g.p("const h, m = %d, %d", h, m)
	} else {
		g.p("h, m := %d, %d", h, m)
	}
	g.p("a := make([][]int, h)")
	g.p("for k := range a {\na[k] = make([]int, m+1)\n}")
	g.p("x := &%sacc{}", name)
	j := g.join()
	g.p("%s", j.decl)
	g.p("for i := range %d {", n)
	g.p("%s", j.open)
	g.p("r := (i*%d + %d) %% h", 1+g.r.IntN(3), g.r.IntN(3))
	g.p("r0 := (r + 1 + %d) %% h", g.r.IntN(h-1)) // never r
	g.p("sum := 0")
	g.coalesceLoop(m)
	g.p("_ = sum")
	g.p("%s", j.close)
	g.p("}")
	g.p("%s", j.wait)
	g.p("sink += a[0][0] + x.tot")
	g.p("}\n")
}

// coalesceLoop writes the sequential loop of coalesceFunc; m is the number
// of columns (each row has m+1 elements).
func (g *gen) coalesceLoop(m int) {
	offsets := []int{0, 0, 1}
	src, closing := "a[r0]", "}"
	switch g.r.IntN(6) {
	case 0:
		g.p("for j := range m {")
	case 1:
		g.p("for j := 0; j < m; j++ {")
	case 2:
		g.p("for j := 1; j < m; j++ {")
		offsets = []int{0, 0, 1, -1}
	case 3:
		g.p("for j := range a[%s] {", g.pick("r", "r0"))
		offsets = []int{0}
	case 4:
		g.p("for j, v := range a[r0] {")
		g.p("_ = j")
		offsets = []int{0}
		src = "" // row r0 is read by the range
	default:
		k := g.r.IntN(2)
		g.p("{\nsrc := a[r0][%d:]", k)
		g.p("for j := range m {")
		src, closing = "src", "}\n}"
		offsets = []int{0, 1 - k} // src has m+1-k elements
	}
	if g.oneIn(3) {
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
		g.p("a[r][%s] = %s + j", d(), read())
	case 2:
		g.p("a[r][%s] += %s", d(), read())
	case 3:
		g.p("a[r][%s]++", d())
		g.p("sum += %s", read())
	default:
		g.p("x.tot += %s", read())
	}
	g.p("%s", closing)
}
