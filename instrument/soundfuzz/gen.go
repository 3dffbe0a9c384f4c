package soundfuzz

// chooser reads the fuzzer's bytes as choices; past the end every choice
// is 0, so every input is a program.
type chooser struct {
	data  []byte
	pos   int
	forms map[string]Affine // the subscript form each slice had last
}

func (c *chooser) intn(n int) int {
	if n <= 1 {
		return 0
	}
	if c.pos >= len(c.data) {
		return 0
	}
	b := int(c.data[c.pos])
	c.pos++
	return b % n
}

// between returns a number in [lo, hi].
func (c *chooser) between(lo, hi int) int { return lo + c.intn(hi-lo+1) }

func pick[T any](c *chooser, xs ...T) T { return xs[c.intn(len(xs))] }

// families are the grammar's families, chosen by the first byte (modulo
// their number). Each is named class/variant so failures and notes can be
// counted per class. Add new families at the end: the corpus inputs'
// first byte is their family's index, so they keep their meaning.
var families = []struct {
	name string
	gen  func(c *chooser) *Prog
}{
	{"loop/affine", genAffine},
	{"loop/overflow", genOverflow},
	{"loop/chunk", genChunk},
	{"loop/flat2d", genFlat2D},
	{"alias/assign", func(c *chooser) *Prog { return genAlias(c, "slice") }},
	{"alias/append", func(c *chooser) *Prog { return genAlias(c, "append") }},
	{"alias/instances", genInstances},
	{"alias/addr", genAddr},
	{"unsafe/slice", func(c *chooser) *Prog { return genAlias(c, "unsafe") }},
	{"unsafe/view", genView},
	{"exit/return", genReturn},
	{"exit/goto", func(c *chooser) *Prog { return genGoto(c, "goto") }},
	{"exit/repeat", genRepeat},
	{"nested/loops", func(c *chooser) *Prog { return genNested(c, pick(c, "wg", "wggo", "errgroup")) }},
	{"pool/worker", func(c *chooser) *Prog { return genPool(c, false) }},
	{"pool/shared", func(c *chooser) *Prog { return genPool(c, true) }},
	{"sync/atomic", func(c *chooser) *Prog { return genSync(c, "atomic") }},
	{"sync/mutex", func(c *chooser) *Prog { return genSync(c, "mutex") }},
	{"sync/chan", func(c *chooser) *Prog { return genSync(c, "chan") }},
	{"callee/func", func(c *chooser) *Prog { return genCallee(c, "func") }},
	{"callee/closure", func(c *chooser) *Prog { return genCallee(c, "closure") }},
	{"callee/param", func(c *chooser) *Prog { return genCallee(c, "param") }},
	{"nested/chan", func(c *chooser) *Prog { return genNested(c, "chan") }},
	{"exit/break", func(c *chooser) *Prog { return genGoto(c, "break") }},
	{"loop/band", genBand},
	{"loop/band-nested", genBandNested},
	{"loop/chunkdiv", func(c *chooser) *Prog { return genChunkDiv(c, false) }},
	{"loop/chunkdiv-wrap", func(c *chooser) *Prog { return genChunkDiv(c, true) }},
	{"loop/cyclic", genCyclic},
	{"loop/mirror", genMirror},
	{"loop/stride", genStride},
	{"loop/rows", genRows},
}

// Generate returns the program data describes.
func Generate(data []byte) *Prog {
	c := &chooser{data: data}
	f := families[c.intn(len(families))]
	p := f.gen(c)
	p.Family = f.name
	return p
}

func mainOf(body ...Stmt) *Prog {
	return &Prog{Funcs: []*Func{{Name: "Main", Body: body}}}
}

func joinKind(c *chooser) string { return pick(c, "wg", "wggo", "errgroup", "chan") }

func op(c *chooser) byte { return pick(c, byte('w'), 'r', 'x', 'w') }

// small returns k·v + d with a small k and d.
func small(c *chooser, v string) Affine {
	k := pick[int64](c, 1, 1, 2, 3, -1, 0)
	d := pick[int64](c, 0, 1, 2, -1, 3, -2, 4)
	if k < 0 {
		d += 12
	}
	if k == 0 {
		return Affine{D: d + 2}
	}
	return Affine{Terms: []Term{{K: k, Var: v}}, D: d}
}

// form returns a subscript of ref: mostly the form ref had before (the
// static stage proves a slice independent only when one form owned by the
// iteration is all it sees), sometimes a new one.
func form(c *chooser, ref, v string) Affine {
	if f, ok := c.forms[ref+"/"+v]; ok && c.intn(4) != 3 {
		return f
	}
	f := small(c, v)
	if c.forms == nil {
		c.forms = map[string]Affine{}
	}
	c.forms[ref+"/"+v] = f
	return f
}

func accesses(c *chooser, refs []string, v string, min int) []Stmt {
	var out []Stmt
	for n := c.between(min, 3); len(out) < n; {
		ref := pick(c, refs...)
		out = append(out, &Access{Ref: ref, Idx: form(c, ref, v), Op: op(c)})
	}
	return out
}

// length is a slice length for n iterations, most often room for 2·n.
func length(c *chooser, n int) int { return pick(c, 2*n+2, n, n+1, 3*n, 2*n) }

func genAffine(c *chooser) *Prog {
	n := c.between(2, 8)
	return mainOf(
		&Make{Name: "a", Elem: "int", Len: length(c, n)},
		&Par{Join: joinKind(c), Var: "i", N: n, Body: accesses(c, []string{"a"}, "i", 1)},
	)
}

func genOverflow(c *chooser) *Prog {
	n := c.between(3, 10)
	k := pick[int64](c, 1<<62, -(1 << 62), 1<<62+1, 1<<63-1, 1<<61, 3<<61)
	body := []Stmt{&Access{Ref: "a", Idx: Affine{Terms: []Term{{K: k, Var: "i"}}, D: int64(c.between(0, 3))}, Op: pick(c, byte('w'), 'x')}}
	if c.intn(2) == 0 {
		body = append(body, &Access{Ref: "a", Idx: small(c, "i"), Op: 'r'})
	}
	return mainOf(
		&Make{Name: "a", Elem: "int", Len: c.between(n, 2*n)},
		&Par{Join: joinKind(c), Var: "i", N: n, Body: body},
	)
}

func genChunk(c *chooser) *Prog {
	n := c.between(4, 16)
	return mainOf(
		&Make{Name: "a", Elem: "int", Len: c.between(n, n+4)},
		&Par{Join: joinKind(c), Var: "i", N: n, Chunk: c.between(2, 5), Body: accesses(c, []string{"a"}, "i", 1)},
	)
}

func genFlat2D(c *chooser) *Prog {
	rows, cols := c.between(2, 4), c.between(2, 5)
	stride := int64(cols + pick(c, 0, 0, 0, -1, 1))
	d := int64(pick(c, 0, 0, 1, -1))
	body := &Seq{Var: "j", N: cols, Body: []Stmt{
		&Access{Ref: "a", Idx: Affine{Terms: []Term{{K: stride, Var: "i"}, {K: 1, Var: "j"}}, D: d}, Op: pick(c, byte('w'), 'x')},
	}}
	if c.intn(2) == 0 {
		body.Body = append(body.Body, &Access{Ref: "a", Idx: Affine{Terms: []Term{{K: stride, Var: "i"}, {K: 1, Var: "j"}}, D: int64(pick(c, 0, 1, -1))}, Op: 'r'})
	}
	return mainOf(
		&Make{Name: "a", Elem: "int", Len: rows*cols + 2},
		&Par{Join: joinKind(c), Var: "i", N: rows, Body: []Stmt{body}},
	)
}

func genAlias(c *chooser, how string) *Prog {
	n := c.between(2, 8)
	lo := c.between(0, 3)
	if how == "append" {
		lo = max(lo, 1)
	}
	return mainOf(
		&Make{Name: "a", Elem: "int", Len: lo + length(c, n)},
		&Alias{Name: "b", Src: "a", How: how, Lo: lo},
		&Par{Join: joinKind(c), Var: "i", N: n, Body: append(
			[]Stmt{&Access{Ref: "a", Idx: form(c, "a", "i"), Op: pick(c, byte('w'), 'x')}},
			accesses(c, []string{"b", "a"}, "i", 1)...)},
	)
}

func genView(c *chooser) *Prog {
	n := c.between(2, 8)
	lo := c.between(0, 2)
	return mainOf(
		&Make{Name: "a", Elem: "uint32", Len: lo + length(c, n)},
		&Alias{Name: "b", Src: "a", How: "view", Lo: lo},
		&Par{Join: joinKind(c), Var: "i", N: n, Body: append(
			[]Stmt{&Access{Ref: "b", Idx: form(c, "b", "i"), Op: pick(c, byte('w'), 'x')}},
			accesses(c, []string{"a", "b"}, "i", 1)...)},
	)
}

func genInstances(c *chooser) *Prog {
	n := c.between(2, 6)
	l := length(c, n)
	var after Stmt = &Swap{A: "a", B: "b"}
	if c.intn(2) == 0 {
		after = &Assign{Dst: pick(c, "b", "a"), Src: "a"}
		if after.(*Assign).Dst == "a" {
			after.(*Assign).Src = "b"
		}
	}
	return mainOf(
		&Make{Name: "a", Elem: "int", Len: l},
		&Make{Name: "b", Elem: "int", Len: l},
		&Seq{Var: "r", N: c.between(2, 3), Body: []Stmt{
			&Par{Join: joinKind(c), Var: "i", N: n, Body: []Stmt{
				&Access{Ref: "a", Idx: small(c, "i"), Op: pick(c, byte('w'), 'x')},
				&Access{Ref: "b", Idx: small(c, "i"), Op: op(c)},
			}},
			after,
		}},
	)
}

func genAddr(c *chooser) *Prog {
	n := c.between(2, 8)
	l := length(c, n)
	k := c.between(0, l-1)
	return mainOf(
		&Make{Name: "a", Elem: "int", Len: l},
		&Addr{Name: "p", Src: "a", K: k},
		&Par{Join: joinKind(c), Var: "i", N: n, Body: []Stmt{
			&If{Var: "i", Eq: c.between(0, n-1), Body: []Stmt{&Access{Ref: "p", Ptr: true, Op: pick(c, byte('w'), 'r')}}},
			&Access{Ref: "a", Idx: form(c, "a", "i"), Op: pick(c, byte('w'), 'x', 'r')},
		}},
	)
}

// parentAccesses are the parent's accesses after a construct it left
// unjoined, before the final Wait.
func parentAccesses(c *chooser, n int) []Stmt {
	var out []Stmt
	for range c.between(1, 2) {
		out = append(out, &Access{Ref: "a", Idx: Affine{D: int64(c.between(0, n))}, Op: pick(c, byte('w'), 'r')})
	}
	return out
}

func genReturn(c *chooser) *Prog {
	n := c.between(2, 6)
	work := &Func{Name: "work", Params: []Param{{"a", "[]int"}, {"wg", "*sync.WaitGroup"}}, Body: []Stmt{
		&Par{Join: pick(c, "wg", "wggo"), Var: "i", N: n, WG: "wg", Exit: "return", ExitAt: c.between(0, n-1), NoteOK: true,
			Body: []Stmt{&Access{Ref: "a", Idx: small(c, "i"), Op: pick(c, byte('w'), 'x')}}},
	}}
	main := &Func{Name: "Main", Body: append([]Stmt{
		&Make{Name: "a", Elem: "int", Len: n + 4},
		&DeclWG{Name: "wg"},
		&CallWork{Func: "work", Args: []string{"a", "&wg"}},
	}, append(parentAccesses(c, n), &WaitWG{Name: "wg"})...)}
	return &Prog{Funcs: []*Func{main, work}}
}

// genGoto leaves the construct after a fork by exit ("goto" or "break"),
// past its join; the parent then accesses a and waits.
func genGoto(c *chooser, exit string) *Prog {
	n := c.between(2, 6)
	body := []Stmt{
		&Make{Name: "a", Elem: "int", Len: n + 4},
		&DeclWG{Name: "wg"},
		&Par{Join: pick(c, "wg", "wggo"), Var: "i", N: n, WG: "wg", Exit: exit, ExitAt: c.between(0, n-1), NoteOK: true,
			Body: []Stmt{&Access{Ref: "a", Idx: small(c, "i"), Op: pick(c, byte('w'), 'x')}}},
	}
	return mainOf(append(body, append(parentAccesses(c, n), &WaitWG{Name: "wg"})...)...)
}

func genRepeat(c *chooser) *Prog {
	n := c.between(2, 6)
	return mainOf(
		&Make{Name: "a", Elem: "int", Len: 2*n + 4},
		&Par{Join: joinKind(c), Var: "i", N: n, Repeat: c.between(2, 3), NoteOK: true,
			Body: accesses(c, []string{"a"}, "i", 1)},
	)
}

// genNested nests a parallel loop joined by innerJoin in a parallel loop.
func genNested(c *chooser, innerJoin string) *Prog {
	n1, n2 := c.between(2, 4), c.between(2, 4)
	idx := pick(c,
		Affine{Terms: []Term{{K: 1, Var: "j"}}},
		Affine{Terms: []Term{{K: int64(n2), Var: "i"}, {K: 1, Var: "j"}}},
		Affine{Terms: []Term{{K: int64(n2), Var: "i"}, {K: 1, Var: "j"}}, D: 1},
		Affine{Terms: []Term{{K: 2, Var: "j"}}, D: 1},
		Affine{Terms: []Term{{K: 1, Var: "i"}}},
	)
	inner := &Par{Join: innerJoin, Var: "j", N: n2, Body: []Stmt{&Access{Ref: "a", Idx: idx, Op: pick(c, byte('w'), 'x')}}}
	var outerBody []Stmt = []Stmt{inner}
	if c.intn(2) == 0 {
		outerBody = append(outerBody, &Access{Ref: "a", Idx: small(c, "i"), Op: op(c)})
	}
	return mainOf(
		&Make{Name: "a", Elem: "int", Len: n1*n2 + 2},
		&Par{Join: joinKind(c), Var: "i", N: n1, Body: outerBody},
	)
}

func genPool(c *chooser, shared bool) *Prog {
	workers, items := c.between(2, 4), c.between(2, 8)
	pre := []Stmt{&Access{Ref: "partial", Idx: Affine{Terms: []Term{{K: 1, Var: "w"}}}, Op: 'w'}}
	body := []Stmt{
		&Access{Ref: "partial", Idx: Affine{Terms: []Term{{K: 1, Var: "w"}}}, Op: 'x'},
		&Access{Ref: "a", Idx: Affine{Terms: []Term{{K: 1, Var: "it"}}}, Op: pick(c, byte('w'), 'x', 'r')},
	}
	if shared {
		body = append(body, pick[Stmt](c,
			&Access{Ref: "a", Idx: Affine{D: int64(c.between(0, items-1))}, Op: pick(c, byte('w'), 'x')},
			&Access{Ref: "partial", Idx: Affine{D: int64(c.between(0, workers-1))}, Op: pick(c, byte('w'), 'x')},
			&Access{Ref: "a", Idx: small(c, "it"), Op: pick(c, byte('w'), 'x')},
			// a[w] is worker w's, but a worker that takes no item never
			// touches it: its conflicts with a[it] may be noted.
			&Access{Ref: "a", Idx: Affine{Terms: []Term{{K: 1, Var: "w"}}}, Op: pick(c, byte('w'), 'x'), NoteOK: true},
		))
	}
	return mainOf(
		&Make{Name: "partial", Elem: "int", Len: workers},
		&Make{Name: "a", Elem: "int", Len: items + 2},
		&Pool{Workers: workers, Items: items, WVar: "w", IVar: "it", Pre: pre, Body: body},
	)
}

func genSync(c *chooser, how string) *Prog {
	n := c.between(2, 5)
	d := int64(c.between(0, 2))
	return mainOf(
		&Make{Name: "a", Elem: "int", Len: 4},
		&Make{Name: "b", Elem: "int", Len: n},
		&SyncLoop{How: how, Var: "i", N: n, NoteOK: true,
			Own:      []Stmt{&Access{Ref: "b", Idx: Affine{Terms: []Term{{K: 1, Var: "i"}}}, Op: pick(c, byte('w'), 'x')}},
			Producer: []Stmt{&Access{Ref: "a", Idx: Affine{D: d}, Op: 'w'}},
			Cons:     []Stmt{&Access{Ref: "a", Idx: Affine{D: d}, Op: 'r'}, &Access{Ref: "b", Idx: Affine{D: 0}, Op: 'r'}},
		},
	)
}

func genCallee(c *chooser, how string) *Prog {
	n := c.between(2, 8)
	callee := &Func{Name: "touch", Params: []Param{{"s", "[]int"}, {"i", "int"}},
		Body: accesses(c, []string{"s"}, "i", 1)}
	body := []Stmt{&Call{Fn: "touch", How: how, Args: []string{"a", "i"}, NoteOK: how != "func"}}
	if c.intn(2) == 0 {
		body = append(body, &Access{Ref: "a", Idx: small(c, "i"), Op: op(c)})
	}
	par := &Par{Join: joinKind(c), Var: "i", N: n, Body: body}
	mk := &Make{Name: "a", Elem: "int", Len: length(c, n)}
	switch how {
	case "func":
		return &Prog{Funcs: []*Func{{Name: "Main", Body: []Stmt{mk, par}}, callee}}
	case "closure":
		callee.Name = "touch"
		return mainOf(mk, &DeclClosure{Name: "touch", Fn: callee}, par)
	}
	apply := &Func{Name: "apply", Params: []Param{{"a", "[]int"}, {"touch", "func"}}, Body: []Stmt{par}}
	return &Prog{Funcs: []*Func{{Name: "Main", Body: []Stmt{mk, &PassFunc{Func: "apply", Args: []string{"a"}, Lit: callee}}}, apply}}
}

// genBand exercises the dependence tests on footprints (analysis's
// depend.go) with a symbolic row width w, a parameter of the function
// holding the loop: flat rows a[i*w+j+d] with j over [0, w+e) or a
// triangle (j below i+e), and row slices s := a[i*w+d1 : i*w+w+d2]
// (perhaps clipped, min(…, cap), as blocks are) written through s[k],
// in the body or by a helper it is passed to. The offsets e, d, d2 of 0 keep each row in its
// own band; the others reach the next row.
func genBand(c *chooser) *Prog {
	rows, w := c.between(2, 4), c.between(2, 5)
	iw := func(d int64) Affine { return Affine{Terms: []Term{{K: 1, Var: "i", Var2: "w"}}, D: d} }
	var body []Stmt
	op := pick(c, byte('w'), 'x')
	switch c.intn(3) {
	case 0: // flat row
		to := Affine{Terms: []Term{{K: 1, Var: "w"}}, D: int64(pick(c, 0, 0, 1, -1))}
		idx := iw(int64(pick(c, 0, 0, 1)))
		idx.Terms = append(idx.Terms, Term{K: 1, Var: "j"})
		body = []Stmt{&Seq{Var: "j", To: &to, Body: []Stmt{&Access{Ref: "a", Idx: idx, Op: op}}}}
	case 1: // triangle
		to := Affine{Terms: []Term{{K: 1, Var: "i"}}, D: int64(pick(c, 0, 1, 2))}
		idx := iw(0)
		idx.Terms = append(idx.Terms, Term{K: 1, Var: "j"})
		body = []Stmt{&Seq{Var: "j", To: &to, Body: []Stmt{&Access{Ref: "a", Idx: idx, Op: op}}}}
	default: // row slice, or a block clipped at the end by min
		d1, d2 := int64(pick(c, 0, 0, 1)), int64(pick(c, 0, 0, 1, -1))
		hi := iw(d2)
		hi.Terms = append(hi.Terms, Term{K: 1, Var: "w"})
		sub := &Sub{Name: "s", Src: "a", Lo: iw(d1), Hi: hi}
		if c.intn(2) == 1 {
			sub.Cap = rows*w - 1 // the last block is one short
		}
		body = []Stmt{
			sub,
			&Seq{Var: "k", N: w + 1, Body: []Stmt{&Access{Ref: "s", Idx: Affine{Terms: []Term{{K: 1, Var: "k"}}}, Op: op}}},
		}
	}
	if c.intn(2) == 0 {
		body = append(body, &Access{Ref: "a", Idx: iw(int64(pick(c, 0, 1, -1))), Op: 'r'})
	}
	work := &Func{Name: "band", Params: []Param{{"a", "[]int"}, {"w", "int"}}, Body: []Stmt{
		&Par{Join: joinKind(c), Var: "i", N: rows, Body: body},
	}}
	main := &Func{Name: "Main", Body: []Stmt{
		&Make{Name: "a", Elem: "int", Len: rows*w + w + 2},
		&DeclInt{Name: "w", V: w},
		&CallWork{Func: "band", Args: []string{"a", "w"}},
	}}
	funcs := []*Func{main, work}
	if sub, ok := body[0].(*Sub); ok && c.intn(2) == 1 {
		// The row is handed to a helper that indexes it (walked in place).
		loop := body[1].(*Seq)
		loop.Body[0].(*Access).Ref = "r"
		funcs = append(funcs, &Func{Name: "row", Params: []Param{{"r", "[]int"}}, Body: []Stmt{loop}})
		body[1] = &Call{Fn: "row", How: "func", Args: []string{sub.Name}}
	}
	return &Prog{Funcs: funcs}
}

// genBandNested exercises footprints through a sub-slice of a sub-slice
// (analysis's affine_range.go composes their bounds): iteration i takes a
// slab s := a[2*i*w : 2*i*w+2*w+e0] of two rows and, for k of 0 and 1,
// the row r := s[k*w+d1 : k*w+w+d2], writing every element of r. With e0
// and d2 of 1 the second row reaches the next slab's first element (a
// reslicing is bounded by the capacity, not the slab's length); a slab one
// wider that no row reaches past (e0 of 1, d2 of 0) is still its own band.
func genBandNested(c *chooser) *Prog {
	rows, w := c.between(2, 4), c.between(2, 4)
	e0, d1, d2 := int64(pick(c, 0, 0, 1)), int64(pick(c, 0, 0, 1)), int64(pick(c, 0, 0, 1))
	if e0 == 0 {
		d2 = 0 // the row stays within the slab's length, as the simulation needs
	}
	op := pick(c, byte('w'), 'x')
	iw2 := Affine{Terms: []Term{{K: 2, Var: "i", Var2: "w"}}}
	slabHi := Affine{Terms: []Term{{K: 2, Var: "i", Var2: "w"}, {K: 2, Var: "w"}}, D: e0}
	rowLo := Affine{Terms: []Term{{K: 1, Var: "k", Var2: "w"}}, D: d1}
	rowHi := Affine{Terms: []Term{{K: 1, Var: "k", Var2: "w"}, {K: 1, Var: "w"}}, D: d2}
	to := Affine{Terms: []Term{{K: 1, Var: "w"}}, D: d2 - d1}
	body := []Stmt{
		&Sub{Name: "s", Src: "a", Lo: iw2, Hi: slabHi},
		&Seq{Var: "k", N: 2, Body: []Stmt{
			&Sub{Name: "r", Src: "s", Lo: rowLo, Hi: rowHi},
			&Seq{Var: "j", To: &to, Body: []Stmt{&Access{Ref: "r", Idx: Affine{Terms: []Term{{K: 1, Var: "j"}}}, Op: op}}},
		}},
	}
	work := &Func{Name: "band", Params: []Param{{"a", "[]int"}, {"w", "int"}}, Body: []Stmt{
		&Par{Join: joinKind(c), Var: "i", N: rows, Body: body},
	}}
	main := &Func{Name: "Main", Body: []Stmt{
		&Make{Name: "a", Elem: "int", Len: rows*2*w + 2*w + 2},
		&DeclInt{Name: "w", V: w},
		&CallWork{Func: "band", Args: []string{"a", "w"}},
	}}
	return &Prog{Funcs: []*Func{main, work}}
}

// genChunkDiv exercises the band test of division-bounded chunks
// (analysis's chunkband.go): iteration i of k works on the chunk
// lo, hi := i*n/d + d0, (i+1)*n/d + d1 of n (d = k), walking its elements
// a[v+e], its rows s := a[v*m : v*m+m+e] (written whole), or its
// sub-slice q := a[lo : hi+e]; sometimes it also reads a[hi], the next
// chunk's first element. Offsets d0 ≠ d1 make the bounds no chunk; e and
// the read reach the next chunk; hi is sometimes clipped by min(…, n-1).
// With huge (loop/chunkdiv-wrap) n and d
// are huge, the bounds clamped to [0, 16] (min(max(…, 0), 16)), and i*n
// wraps for some n: the clamped bounds then go down and up again and
// chunks meet. n, k, d and m are parameters of the function holding the
// loop, so the bounds are symbolic.
func genChunkDiv(c *chooser, huge bool) *Prog {
	k := c.between(2, 4)
	n := c.between(k, 3*k+1)
	d, clamp := k, int64(0)
	m := c.between(2, 3)
	shape := c.intn(3)
	d0 := int64(pick(c, 0, 0, 1, -1))
	d1 := d0
	if c.intn(3) == 0 {
		d1 = int64(pick(c, 0, 1, -1))
	}
	e := int64(pick(c, 0, 0, 1, -1))
	if huge {
		// i*n/d for i ≤ 5: 0 16 -32 -16 0 16 (1<<62), 0 24 -16 8 -32 56
		// (3<<61, clamped: 0 16 0 8 0 16), or no wrap (1<<40).
		k, n, d, clamp = 5, pick(c, 1<<62, 3<<61, 1<<40), 1<<58, 16
		if n == 1<<40 {
			d = 1 << 37
		}
		shape = 0 // the bounds may go down: only a loop walks them
	}
	if shape != 0 {
		// Rows and sub-slices start at lo ≥ 0 and end past it (the
		// simulation refuses a slice out of range, as the program would
		// panic).
		d0, d1, e = max(d0, 0), max(d1, 0), max(e, 0)
		for i := range k {
			if (i+1)*n/d+int(d1+e) < i*n/d+int(d0) {
				d1 = d0
			}
		}
	}
	lo := Affine{Terms: []Term{{K: 1, Var: "lo"}}}
	hi := Affine{Terms: []Term{{K: 1, Var: "hi"}}}
	op := pick(c, byte('w'), 'x')
	body := []Stmt{
		&DeclDiv{Name: "lo", Var: "i", Mul: "n", Div: "d", D: d0, Clamp: clamp},
		&DeclDiv{Name: "hi", Var: "i", Add: 1, Mul: "n", Div: "d", D: d1, Clamp: clamp},
	}
	if !huge && c.intn(3) == 0 {
		// The last chunk clipped: hi := min((i+1)*n/d + d1, n - 1).
		body[1].(*DeclDiv).Min = int64(n - 1)
		if shape != 0 {
			d0, d1, e = 0, 0, 0 // lo ≤ hi stays
			body[0].(*DeclDiv).D, body[1].(*DeclDiv).D = 0, 0
		}
	}
	length := n + 3
	if huge {
		length = int(clamp) + 2
	}
	switch shape {
	case 0: // the chunk's elements
		body = append(body, &Seq{Var: "v", From: &lo, To: &hi, Body: []Stmt{
			&Access{Ref: "a", Idx: Affine{Terms: []Term{{K: 1, Var: "v"}}, D: e}, Op: op},
		}})
	case 1: // the chunk's rows, of m elements (m+e)
		length = (n+2)*m + 2
		rowLo := Affine{Terms: []Term{{K: 1, Var: "v", Var2: "m"}}}
		rowHi := Affine{Terms: []Term{{K: 1, Var: "v", Var2: "m"}, {K: 1, Var: "m"}}, D: e}
		body = append(body, &Seq{Var: "v", From: &lo, To: &hi, Body: []Stmt{
			&Sub{Name: "s", Src: "a", Lo: rowLo, Hi: rowHi},
			&Seq{Var: "j", N: m + 1, Body: []Stmt{&Access{Ref: "s", Idx: Affine{Terms: []Term{{K: 1, Var: "j"}}}, Op: op}}},
		}})
	default: // the chunk's sub-slice
		qhi := hi
		qhi.D = e
		body = append(body,
			&Sub{Name: "q", Src: "a", Lo: lo, Hi: qhi},
			&Seq{Var: "j", N: n/k + 3, Body: []Stmt{&Access{Ref: "q", Idx: Affine{Terms: []Term{{K: 1, Var: "j"}}}, Op: op}}},
		)
	}
	if c.intn(3) == 0 {
		body = append(body, &Access{Ref: "a", Idx: hi, Op: 'r'})
	}
	work := &Func{Name: "chunks", Params: []Param{{"a", "[]int"}, {"n", "int"}, {"k", "int"}, {"d", "int"}, {"m", "int"}}, Body: []Stmt{
		&Par{Join: joinKind(c), Var: "i", N: k, Body: body},
	}}
	main := &Func{Name: "Main", Body: []Stmt{
		&Make{Name: "a", Elem: "int", Len: length},
		&DeclInt{Name: "n", V: n},
		&DeclInt{Name: "k", V: k},
		&DeclInt{Name: "d", V: d},
		&DeclInt{Name: "m", V: m},
		&CallWork{Func: "chunks", Args: []string{"a", "n", "k", "d", "m"}},
	}}
	return &Prog{Funcs: []*Func{main, work}}
}

// genCyclic exercises the band test of cyclic distributions (analysis's
// cyclic.go): iteration i of k takes v := i + c0; v < n; v += S, S a
// parameter that is sometimes below k (two iterations then share values
// of v), and walks its element a[v+e] or its triangle row
// r := a[v*m : v*m+v+1+e] (syrk's rows), m a parameter of n-1, n or n+1
// (a row one longer than m reaches the next one).
func genCyclic(c *chooser) *Prog {
	k := c.between(2, 4)
	S := c.between(1, k+1)
	n := c.between(k, 3*k+1)
	c0 := int64(pick(c, 0, 0, 1))
	e := int64(pick(c, 0, 0, 1, -1))
	m := max(1, n+pick(c, 0, 0, -1, 1))
	op := pick(c, byte('w'), 'x')
	from := Affine{Terms: []Term{{K: 1, Var: "i"}}, D: c0}
	to := Affine{Terms: []Term{{K: 1, Var: "n"}}}
	v := func(d int64) Affine { return Affine{Terms: []Term{{K: 1, Var: "v"}}, D: d} }
	length := n + 3
	var inner []Stmt
	if c.intn(2) == 0 { // the element a[v+e]
		inner = []Stmt{&Access{Ref: "a", Idx: v(e), Op: op}}
	} else { // the triangle row of v
		e = max(e, 0)
		length = (n+1)*m + n + 3
		hi := Affine{Terms: []Term{{K: 1, Var: "v", Var2: "m"}, {K: 1, Var: "v"}}, D: 1 + e}
		rowTo := v(1 + e)
		inner = []Stmt{
			&Sub{Name: "r", Src: "a", Lo: Affine{Terms: []Term{{K: 1, Var: "v", Var2: "m"}}}, Hi: hi},
			&Seq{Var: "j", To: &rowTo, Body: []Stmt{&Access{Ref: "r", Idx: Affine{Terms: []Term{{K: 1, Var: "j"}}}, Op: op}}},
		}
	}
	body := []Stmt{&Seq{Var: "v", From: &from, To: &to, Step: "S", Body: inner}}
	work := &Func{Name: "cyclic", Params: []Param{{"a", "[]int"}, {"n", "int"}, {"S", "int"}, {"m", "int"}}, Body: []Stmt{
		&Par{Join: joinKind(c), Var: "i", N: k, Body: body},
	}}
	main := &Func{Name: "Main", Body: []Stmt{
		&Make{Name: "a", Elem: "int", Len: length},
		&DeclInt{Name: "n", V: n},
		&DeclInt{Name: "S", V: S},
		&DeclInt{Name: "m", V: m},
		&CallWork{Func: "cyclic", Args: []string{"a", "n", "S", "m"}},
	}}
	return &Prog{Funcs: []*Func{main, work}}
}

// genMirror exercises the exact pairwise test (analysis's exact.go,
// fm.go): iteration i of the rows writes cov[i*m+j] and writes or reads
// its mirror cov[j*m+i] for j := i+d; j < m+e, d of -1, 0 or 1 and e of
// 0 or 1: with d = -1 or e = 1 two iterations meet (a column past the
// row is the next row's first element); sometimes iteration i also reads
// the diagonal element of row i+1.
func genMirror(c *chooser) *Prog {
	m := c.between(2, 5)
	rows := pick(c, m, m, m-1)
	d := int64(pick(c, 0, 0, -1, 1))
	e := int64(pick(c, 0, 0, 1))
	from := Affine{Terms: []Term{{K: 1, Var: "i"}}, D: d}
	to := Affine{Terms: []Term{{K: 1, Var: "m"}}, D: e}
	at := func(r, col string, dd int64) Affine {
		return Affine{Terms: []Term{{K: 1, Var: r, Var2: "m"}, {K: 1, Var: col}}, D: dd}
	}
	body := []Stmt{&Seq{Var: "j", From: &from, To: &to, Body: []Stmt{
		&Access{Ref: "cov", Idx: at("i", "j", 0), Op: 'w'},
		&Access{Ref: "cov", Idx: at("j", "i", 0), Op: pick(c, byte('w'), 'w', 'r')},
	}}}
	if c.intn(3) == 0 {
		next := at("i", "i", 0)
		next.Terms = append(next.Terms, Term{K: 1, Var: "m"})
		next.D = 1
		body = append(body, &Access{Ref: "cov", Idx: next, Op: 'r'})
	}
	work := &Func{Name: "mirror", Params: []Param{{"cov", "[]int"}, {"m", "int"}}, Body: []Stmt{
		&Par{Join: joinKind(c), Var: "i", N: rows, Body: body},
	}}
	main := &Func{Name: "Main", Body: []Stmt{
		&Make{Name: "cov", Elem: "int", Len: (m+1)*m + m + 2},
		&DeclInt{Name: "m", V: m},
		&CallWork{Func: "mirror", Args: []string{"cov", "m"}},
	}}
	return &Prog{Funcs: []*Func{main, work}}
}

// genStride exercises check coalescing's strided, inclusive and point
// moves (instrument/rewrite's coalesce_stride.go, coalesce_partial.go):
// iteration i walks k over [0, w+e), written k < w+e or k <= w+e-1,
// touching a run a[i*w+k+d], a column b[k*w+i+c] (or b[K*k+i+c], K a
// constant), and sometimes an entry a[p] or b[p] in every iteration or
// the column only when i is 1. b is a itself, a view of a from an
// offset (the column then crosses the rows other iterations write, which
// only the run-time apartness tests see), or an array of its own; it is
// sometimes shorter than the column reaches (the access is then rendered
// under a bounds test). w is a parameter, so the bounds are symbolic.
func genStride(c *chooser) *Prog {
	rows, w := c.between(2, 4), c.between(2, 5)
	e := int64(pick(c, 0, 0, -1, 1))
	to := Affine{Terms: []Term{{K: 1, Var: "w"}}, D: e}
	run := Affine{Terms: []Term{{K: 1, Var: "i", Var2: "w"}, {K: 1, Var: "k"}}, D: int64(pick(c, 0, 0, 1))}
	col := Affine{Terms: []Term{{K: 1, Var: "k", Var2: "w"}, {K: 1, Var: "i"}}, D: int64(pick(c, 0, 0, 1))}
	if c.intn(3) == 0 {
		col.Terms[0] = Term{K: int64(w + pick(c, 0, 1, -1)), Var: "k"}
	}
	body := []Stmt{
		&Access{Ref: "a", Idx: run, Op: pick(c, byte('w'), 'x', 'r')},
		&Access{Ref: "b", Idx: col, Op: pick(c, byte('r'), 'r', 'w', 'x')},
	}
	if c.intn(2) == 0 {
		body[0], body[1] = body[1], body[0]
	}
	if c.intn(4) == 0 {
		body[1] = &If{Var: "i", Eq: 1, Body: []Stmt{body[1]}}
	}
	n := max(rows, w+2)*w + w + 4
	if c.intn(3) > 0 {
		p := &Access{Ref: pick(c, "a", "b"), Idx: Affine{D: int64(c.between(0, 2*w+3))}, Op: pick(c, byte('r'), 'r', 'x')}
		body = append(body, p)
		if c.intn(2) == 0 {
			body[0], body[2] = body[2], body[0]
		}
	}
	if c.intn(3) == 0 {
		// A conditional b[k+d] before the rest: its apartness test and the
		// column's (all of b) are two (sound_review10_stride_key.txtar).
		cond := &Access{Ref: "b", Idx: Affine{Terms: []Term{{K: 1, Var: "k"}}, D: int64(pick(c, 0, 1))}, Op: 'r'}
		body = append([]Stmt{&If{Var: "i", Eq: c.between(0, rows-1), Body: []Stmt{cond}}}, body...)
	}
	loop := &Seq{Var: "k", To: &to, Incl: c.intn(2) == 0, Body: body}
	par := []Stmt{loop}
	if c.intn(2) == 0 {
		// One iteration writes an element of b first, which the others'
		// columns or runs may read.
		plant := &Access{Ref: "b", Idx: Affine{D: int64(c.between(0, 2*w+3))}, Op: 'w'}
		par = []Stmt{&If{Var: "i", Eq: c.between(0, rows-1), Body: []Stmt{plant}}, loop}
	}
	work := &Func{Name: "stride", Params: []Param{{"a", "[]int"}, {"b", "[]int"}, {"w", "int"}}, Body: []Stmt{
		&Par{Join: joinKind(c), Var: "i", N: rows, Body: par},
	}}
	main := &Func{Name: "Main", Body: []Stmt{
		&Make{Name: "a", Elem: "int", Len: n},
		&DeclInt{Name: "w", V: w},
	}}
	switch c.intn(3) {
	case 0:
		main.Body = append(main.Body, &CallWork{Func: "stride", Args: []string{"a", "a", "w"}})
	case 1:
		main.Body = append(main.Body, &Alias{Name: "b", Src: "a", How: "slice", Lo: c.between(1, w+1)},
			&CallWork{Func: "stride", Args: []string{"a", "b", "w"}})
	default:
		main.Body = append(main.Body, &Make{Name: "b", Elem: "int", Len: n - pick(c, 0, 0, w)},
			&CallWork{Func: "stride", Args: []string{"a", "b", "w"}})
	}
	return &Prog{Funcs: []*Func{main, work}}
}

// genRows is a [][]int matrix, its rows made one by one or cut from one
// array (some overlapping, some with a capacity reaching the next row),
// perhaps with a row aliased to another, and a parallel loop over it in
// a function that takes it: each iteration a row (every column), a
// column (every row) or a triangle's row and its mirror column. The
// static stage proves these by rows (analysis/rows.go) only while the
// guard finds the rows apart.
func genRows(c *chooser) *Prog {
	rows, cols := c.between(2, 6), c.between(2, 5)
	shape := pick(c, "row", "row", "col", "mirror")
	if shape == "mirror" {
		cols = rows
	}
	m := &Matrix{Name: "M", Elem: "int", Rows: rows, Cols: cols, How: pick(c, "rows", "backing", "backing")}
	if m.How == "backing" {
		m.Stride = max(cols+pick(c, 0, 0, 1, -1), 1)
		m.Capped = c.intn(3) > 0
	}
	if a, b := c.intn(rows), c.intn(rows); c.intn(4) == 0 && a != b {
		m.Aliases = [][2]int{{a, b}}
	}
	v := func(name string, d int64) *Affine { return &Affine{Terms: []Term{{K: 1, Var: name}}, D: d} }
	var body []Stmt
	n := rows
	switch shape {
	case "row": // row k·i+d, every column; perhaps a read of a row nearby
		row := small(c, "i")
		acc := []Stmt{&Access{Ref: "M", Row: &row, Idx: *v("j", 0), Op: pick(c, byte('w'), 'x')}}
		if c.intn(2) == 0 {
			other := pick(c, row, *v("i", 1), Affine{})
			acc = append(acc, &Access{Ref: "M", Row: &other, Idx: *v("j", int64(pick(c, 0, 0, 1))), Op: 'r'})
		}
		body = []Stmt{&Seq{Var: "j", N: cols, Body: acc}}
	case "col": // column k·i+d of every row
		n = cols
		col := small(c, "i")
		acc := []Stmt{&Access{Ref: "M", Row: v("j", 0), Idx: col, Op: pick(c, byte('w'), 'x')}}
		if c.intn(2) == 0 {
			acc = append(acc, &Access{Ref: "M", Row: v("j", 0), Idx: pick(c, col, *v("i", 1)), Op: 'r'})
		}
		body = []Stmt{&Seq{Var: "j", N: rows, Body: acc}}
	case "mirror": // M[i][j] and M[j][i] for j from i (or one before)
		from, to := *v("i", int64(pick(c, 0, 0, -1))), Affine{D: int64(rows)}
		body = []Stmt{&Seq{Var: "j", From: &from, To: &to, Body: []Stmt{
			&Access{Ref: "M", Row: v("i", 0), Idx: *v("j", 0), Op: 'w'},
			&Access{Ref: "M", Row: v("j", 0), Idx: *v("i", 0), Op: pick(c, byte('w'), 'w', 'r')},
		}}}
	}
	par := &Par{Join: joinKind(c), Var: "i", N: n, Body: body}
	if c.intn(3) == 0 {
		par.Chunk = c.between(2, 3)
	}
	work := &Func{Name: "work", Params: []Param{{"M", "[][]int"}}, Body: []Stmt{par}}
	main := &Func{Name: "Main", Body: []Stmt{m, &CallWork{Func: "work", Args: []string{"M"}}}}
	return &Prog{Funcs: []*Func{main, work}}
}
