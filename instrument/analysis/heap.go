package analysis

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
	"sort"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// HeapProof is what the static stage proved of the heap accesses (slice
// elements, fields and targets of pointers) in the goroutine body of a
// parallel loop. A verdict that is Guarded holds only when the slices of
// Guard do not overlap in memory: the rewriter then evaluates the guard at
// the construct's start and runs a copy of the loop with those accesses
// unchecked when it holds, the fully checked loop when it does not.
type HeapProof struct {
	Why      string // why nothing could be proved, or ""
	Pool     bool   // a worker pool's proofs: read-only memory only (poolReadOnly)
	Guard    []GuardSpan
	verdicts map[ast.Expr]HeapVerdict
	calls    map[*ast.CallExpr]HeapVerdict
	ctx      map[*ast.CallExpr]*ContextClone // calls that run a clone of their own (cbclone.go)
	lent     map[ast.Expr]bool               // verdicts of a callback's scratch lent to a context clone (cbclone.go)
}

// GuardSpan is one slice (or, with Rows, each row of a [][]T) that the
// guarded verdicts assume apart from the others; Write says the construct
// writes it, so it must not overlap any other span. With Injective, Path is
// an index slice the verdicts assume holds no value twice (and nothing
// else is assumed of it).
type GuardSpan struct {
	Path ast.Expr
	Rows bool
	// Depth, with Rows: the levels of rows, 2 for each row of each row of
	// a [][][]T (0 and 1 for a [][]T's).
	Depth     int
	Write     bool
	Injective bool
	// Cells, with Injective: Path is a slice of integer arrays whose
	// elements, in the rows Sel lists (every row when Sel is nil), hold
	// no value twice. Elem is the arrays' element type.
	Cells bool
	Sel   ast.Expr
	Elem  types.Type
	// Cond, with Injective: a condition the verdicts assume, evaluated at
	// the construct's start (a flattened row Path = x*w+t does not wrap;
	// nowrap.go).
	Cond ast.Expr
	// Band, with Cond: Cond says the iterations' footprints of the slice
	// Path are apart, their bounds' arithmetic not wrapping (depend.go).
	Band bool
	// Chunk, with Cond: Cond says the arithmetic of the chunk bound Path
	// (and of its shifted upper bound) does not wrap (owned.go).
	Chunk bool
	// Len: the read span of Path is its elements up to len, not cap; Lo
	// and Hi: the written span of Path is Path[Lo:Hi], the hull of what
	// the construct touches through it; Range, with Cond: Cond says the
	// hulls' bounds hold and do not wrap (guardrange.go).
	Len    bool
	Lo, Hi ast.Expr
	Range  bool
}

// what says what an injective span assumes, for verdicts and vet.
func (g GuardSpan) what() string {
	switch {
	case g.Cells && g.Sel != nil:
		return "the cells of the rows of " + types.ExprString(g.Path) + " that " + types.ExprString(g.Sel) + " lists hold"
	case g.Cells:
		return "the cells of " + types.ExprString(g.Path) + " hold"
	}
	return types.ExprString(g.Path) + " holds"
}

// What says what the span assumes, in vet's words.
func (g GuardSpan) What() string {
	switch {
	case g.Range:
		return "the written range of " + types.ExprString(g.Path) + " is within its bounds"
	case g.Len:
		return types.ExprString(g.Path) + " up to its len"
	case g.Rows && g.Lo != nil:
		return "the rows of " + types.ExprString(&ast.SliceExpr{X: g.Path, Low: g.Lo, High: g.Hi})
	case g.Lo != nil:
		return types.ExprString(&ast.SliceExpr{X: g.Path, Low: g.Lo, High: g.Hi})
	case g.Band:
		return "the iterations' intervals of " + types.ExprString(g.Path) + " are apart and their bounds do not overflow"
	case g.Chunk:
		return "the chunk bounds from " + types.ExprString(g.Path) + " do not overflow"
	case g.Cond != nil:
		return types.ExprString(g.Path) + " does not overflow"
	case g.Injective:
		return g.what() + " no value twice"
	case g.Rows && g.Depth > 1:
		return "the rows of the rows of " + types.ExprString(g.Path)
	case g.Rows:
		return "the rows of " + types.ExprString(g.Path)
	}
	return types.ExprString(g.Path)
}

// HeapVerdict is the proof for one access.
type HeapVerdict struct {
	Independent bool // no two iterations touch the same element; else read-only: nothing in the construct writes it
	Guarded     bool
	Why         string
}

// Verdict returns the proof for the access e of the goroutine body (a
// location expression, or the value variable of a range loop), if any.
func (p *HeapProof) Verdict(e ast.Expr) (HeapVerdict, bool) {
	v, ok := p.verdicts[ast.Unparen(e)]
	return v, ok
}

// heapPass proves heap accesses in one construct.
type heapPass struct {
	r        *Result
	c        *Construct
	info     *types.Info
	fk       *Fork
	pool     bool                    // a worker pool's: read-only roots only (poolReadOnly)
	step     ast.Expr                // the loop's step s of i += s; nil for 1
	defs     map[*types.Var]ast.Expr // locals of the function assigned once: their value
	loopOf   map[*types.Var]ast.Stmt // loop variables of the goroutine body: their loop
	writes   []types.Type            // everything the construct may write, by type
	roots    map[string]*heapRoot    // slices the body indexes, by canon
	plainR   []types.Type            // reads the body makes of other heap memory, and all of the rest of the construct's
	plainW   []types.Type            // writes of the same
	other    map[ast.Expr]types.Type // the body's other heap reads: read-only if nothing writes their type
	pointees map[ast.Expr]bool       // x of p := &x, p a local of the body assigned once
	order    []string                // root keys in order of first access
	bind     map[*types.Var]ast.Expr // parameters of the callees walked in place: the call's argument
	bound    map[*types.Func]bool    // callees walked in place
	inCallee []ast.Node              // their declarations, and the literal a specialization walks in place
	calls    map[*ast.CallExpr]*boundCall
	indexes  map[string]GuardSpan          // what inj: and cells: positions assume injective, by their key in the form
	valueOf  map[*types.Var]*ast.RangeStmt // value variables of the goroutine body's range loops
	// readOnlyRoots are the index slices whose element type the construct
	// writes: a position through one holds only if the slice is a root
	// proven read-only.
	readOnlyRoots map[string]bool
	views         string              // why memory may be seen as another type (views.go), or ""
	touched       []types.Type        // the types of the footprint's accesses, but synchronization's (views.go)
	synced        []types.Type        // the types synchronization methods touch on their receivers
	aff           *affineState        // the dependence tests' state (affine.go), made when first needed
	private       []ast.Expr          // accesses of the elements of private buffers
	opaqueR       []types.Type        // the reads made outside the body's accesses (privatebuf.go)
	opaqueW       []types.Type        // and the writes (rows.go)
	privBufs      map[*types.Var]bool // the body's private buffers, as found (privatebuf.go)
	stored        map[*types.Var]bool // those whose header is stored into memory: private if prove finds it unread
	headersW      map[string]bool     // rows roots whose header type the body writes: roots if prove finds the headers unwritten (rows.go)
	retracted     *retracted          // what an earlier round found false (heapRounds)
	chunkLos      map[string]ast.Expr // the lower bound f(i) of each chunk family, by name (guardrange.go)
	// spec is the callback walked in place of the goroutine body's call of
	// the helper's parameter, and specWalked whether it was (specialize.go).
	spec       *specSite
	specWalked bool
	// items, when not nil, makes this pass read a callback's item
	// footprints (cbitems.go): its item variable is "@i".
	items *itemSpace
}

// heapRoot is one slice the goroutine body indexes: a stable path (flat),
// or the rows of a stable [][]T (rows).
type heapRoot struct {
	path    ast.Expr
	rows    bool
	elem    types.Type
	wforms  map[string]bool // positions of the accesses that write
	rforms  map[string]bool // positions of the accesses that only read
	unowned bool
	written bool
	exprs   []ast.Expr
	// wide: an access may reach beyond len (a reslice, a pointer), so a
	// read span stays up to cap; footless: an access has no footprint of
	// this root, so there is no hull of it (guardrange.go).
	wide     bool
	footless bool
	// depth, dims and by are a rows root's (rows.go): its levels of rows
	// (1 for [][]T), its dimensions (the rows', then the element's), and
	// the dimension that proved it.
	depth int
	dims  []*heapRoot
	by    *heapRoot
}

// Heap returns the heap proofs of construct c. It assumes c is the root of
// its tree (the rewriter uses them only then) and that the package does
// not use unsafe or reflect.
func (r *Result) Heap(c *Construct) *HeapProof {
	if p, ok := r.heap[c]; ok {
		return p
	}
	p := &HeapProof{verdicts: map[ast.Expr]HeapVerdict{}, calls: map[*ast.CallExpr]HeapVerdict{}}
	r.heap[c] = p
	h, q, why := heapRounds(func() (*heapPass, string) { return r.newHeapPass(c) })
	if q == nil {
		p.Why = why
		return p
	}
	*p = *q
	p.Pool = h.pool
	return p
}

// heapRounds runs the heap pass mk makes: its footprint, then its proofs.
// Two assumptions of the classification hold only if prove proves the
// roots they rest on: a private buffer whose header the body stores into
// memory (privatebuf.go), and a rows root whose row headers' type the body
// writes (rows.go). When prove finds one false, the pass runs again
// without it. It returns the last pass and its proof, or nil and why
// none.
func heapRounds(mk func() (*heapPass, string)) (*heapPass, *HeapProof, string) {
	off := &retracted{bufs: map[*types.Var]bool{}, rows: map[string]bool{}}
	for {
		h, why := mk()
		if h == nil {
			return nil, nil, why
		}
		h.retracted = off
		if why := h.footprint(); why != "" {
			return h, nil, why
		}
		p := &HeapProof{verdicts: map[ast.Expr]HeapVerdict{}, calls: map[*ast.CallExpr]HeapVerdict{}}
		if !h.prove(p, off) {
			return h, p, ""
		}
	}
}

// retracted is what rounds of a heap pass found false: buffers read by
// other iterations, rows roots whose headers may be written.
type retracted struct {
	bufs map[*types.Var]bool
	rows map[string]bool
}

func (r *Result) newHeapPass(c *Construct) (*heapPass, string) { return r.newHeapPassOf(c, false) }

// newHeapPassOf is newHeapPass; anyVersion skips the test of the loop
// variables' version, for a pass that reads no goroutine body's captures
// (a callback's items, cbitems.go: its variables are checked there).
func (r *Result) newHeapPassOf(c *Construct, anyVersion bool) (*heapPass, string) {
	fk := onlyFork(c)
	loop := loopStmt(c.List[c.First])
	pool := fk == nil && poolReadOnly(c, loop)
	if pool {
		fk = c.Forks[0]
	}
	if fk == nil || fk.Body == nil || !pool && c.Index == nil && rangeValueVar(loop, r.finder.info) == nil {
		return nil, "not a loop forking one goroutine literal per iteration"
	}
	if !r.loopOwned(c) || !onePerIteration(loop, fk.Node) {
		return nil, "the loop index is assigned in the body, or the fork is not once per iteration"
	}
	for _, imp := range r.finder.pkg.Imports() {
		if imp.Path() == "unsafe" || imp.Path() == "reflect" {
			return nil, "the package imports " + imp.Path()
		}
	}
	var file *ast.File
	for _, f := range r.finder.files {
		if f.Pos() <= loop.Pos() && loop.End() <= f.End() {
			file = f
		}
	}
	if file == nil {
		return nil, "no file"
	}
	if v := r.finder.info.FileVersions[file]; v != "" && version.Compare(v, "go1.22") < 0 && !anyVersion {
		return nil, "loop variables are shared between iterations before go1.22"
	}
	h := &heapPass{r: r, c: c, pool: pool, info: r.finder.info, fk: fk, defs: map[*types.Var]ast.Expr{}, loopOf: map[*types.Var]ast.Stmt{},
		roots: map[string]*heapRoot{}, other: map[ast.Expr]types.Type{}, bind: map[*types.Var]ast.Expr{},
		bound: map[*types.Func]bool{}, calls: map[*ast.CallExpr]*boundCall{}, indexes: map[string]GuardSpan{},
		valueOf: map[*types.Var]*ast.RangeStmt{}, readOnlyRoots: map[string]bool{}, views: r.Views()}
	if fs, ok := loop.(*ast.ForStmt); ok {
		switch p := fs.Post.(type) {
		case *ast.IncDecStmt:
			if p.Tok != token.INC {
				return nil, "the loop counts down"
			}
		case *ast.AssignStmt:
			if p.Tok != token.ADD_ASSIGN || len(p.Rhs) != 1 {
				return nil, "the loop's step is not i += s"
			}
			h.step = p.Rhs[0]
		default:
			return nil, "the loop has no step"
		}
	}
	path, _ := astutil.PathEnclosingInterval(file, loop.Pos(), loop.End())
	var fn ast.Node
	for _, n := range path {
		if d, ok := n.(*ast.FuncDecl); ok {
			fn = d
		}
	}
	if fn == nil {
		return nil, "not in a function"
	}
	h.collectDefs(fn)
	h.bindForkParams()
	h.pointees = map[ast.Expr]bool{}
	for v, d := range h.defs {
		if u, ok := ast.Unparen(d).(*ast.UnaryExpr); ok && u.Op == token.AND && h.def(v) != nil && fk.Body.Pos() <= v.Pos() && v.Pos() < fk.Body.End() {
			h.pointees[ast.Unparen(u.X)] = true
		}
	}
	h.recordLoops(fk.Body.Body)
	return h, ""
}

// recordLoops records the loops of body, not entering function literals:
// their variables (loopOf) and their range value variables (valueOf). It
// runs over the goroutine body, and over a callback walked in place of
// it (specialize.go).
func (h *heapPass) recordLoops(body *ast.BlockStmt) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch l := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			if as, ok := l.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE && len(as.Lhs) == 1 {
				if v, ok := h.info.Defs[as.Lhs[0].(*ast.Ident)].(*types.Var); ok {
					h.loopOf[v] = l
				}
			}
		case *ast.RangeStmt:
			if id, ok := l.Key.(*ast.Ident); ok && l.Tok == token.DEFINE {
				if v, ok := h.info.Defs[id].(*types.Var); ok {
					h.loopOf[v] = l
				}
			}
			if id, ok := l.Value.(*ast.Ident); ok && l.Tok == token.DEFINE {
				if v, ok := h.info.Defs[id].(*types.Var); ok {
					h.valueOf[v] = l
				}
			}
		}
		return true
	})
}

// collectDefs records the locals of fn declared with a value.
func (h *heapPass) collectDefs(fn ast.Node) {
	mark := func(lhs []ast.Expr, rhs []ast.Expr) {
		if len(lhs) != len(rhs) {
			return
		}
		for k, l := range lhs {
			if id, ok := l.(*ast.Ident); ok {
				if v, ok := h.info.Defs[id].(*types.Var); ok {
					h.defs[v] = rhs[k]
				}
			}
		}
	}
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				mark(n.Lhs, n.Rhs)
			}
		case *ast.ValueSpec:
			var lhs []ast.Expr
			for _, id := range n.Names {
				lhs = append(lhs, id)
			}
			mark(lhs, n.Values)
		}
		return true
	})
}

// footprint lists what the construct touches: the goroutine body's
// accesses one by one, everything else (the parent's statements, function
// literals, the functions called, transitively) by type. It returns why
// the construct cannot be followed, or "".
func (h *heapPass) footprint() string {
	var body []access
	seen := map[*types.Func]bool{}
	var queue []*types.Func
	var lits []*ast.FuncLit
	opaque := &accessWalker{r: h.r, info: h.info}
	opaque.emit = func(a access) {
		h.touch(a)
		if a.mode&write != 0 {
			h.plainW = append(h.plainW, a.typ)
		}
		if a.mode&read != 0 {
			h.plainR = append(h.plainR, a.typ)
		}
	}
	enqueue := func(fn *types.Func) {
		if !seen[fn] {
			seen[fn] = true
			queue = append(queue, fn)
		}
	}
	opaque.callees = enqueue
	opaque.lits = func(l *ast.FuncLit) {
		if l != h.fk.Body {
			lits = append(lits, l)
		}
	}
	bw := &accessWalker{r: h.r, info: h.info, emit: func(a access) { h.touch(a); body = append(body, a) }, callees: enqueue, lits: opaque.lits}
	bw.inPlace = func(call *ast.CallExpr, fn *types.Func) bool { return h.bindCall(call, fn, bw.emit) }
	if h.spec != nil {
		bw.viaValue = func(call *ast.CallExpr) bool { return h.bindLit(call, bw.emit) }
	}
	bw.walk(h.fk.Body.Body)
	parent := *opaque
	parent.emit = func(a access) {
		opaque.emit(a)
		switch {
		case a.mode == read && !a.elems:
			h.other[ast.Unparen(a.e)] = a.typ // the parent's reads: read-only if nothing writes their type
		case a.mode == read && a.key != nil:
			h.other[ast.Unparen(a.key)] = a.typ // the elements the parent's range loop reads, named by its value
		}
	}
	for _, s := range h.c.List[h.c.First : h.c.Join+1] {
		parent.walk(s)
	}
	if parent.opaque != "" {
		return parent.opaque
	}
	for len(queue) > 0 || len(lits) > 0 {
		if len(lits) > 0 {
			l := lits[len(lits)-1]
			lits = lits[:len(lits)-1]
			opaque.walk(l.Body)
			continue
		}
		fn := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		d := h.r.Decls[fn]
		if d == nil || d.Body == nil {
			return "calls " + fn.Name() + ", whose body is not here"
		}
		opaque.walk(d.Body)
	}
	if bw.opaque != "" {
		return bw.opaque
	}
	if opaque.opaque != "" {
		return opaque.opaque
	}
	h.writes = append(h.writes, h.plainW...)
	for _, a := range body {
		if a.mode&write != 0 && !(a.addr && h.pointees[ast.Unparen(a.e)]) {
			h.writes = append(h.writes, a.typ) // p := &x is not a write: the accesses through p are listed
		}
	}
	h.opaqueR, h.opaqueW = append([]types.Type(nil), h.plainR...), append([]types.Type(nil), h.plainW...)
	h.privBufs, h.stored, h.headersW = map[*types.Var]bool{}, map[*types.Var]bool{}, map[string]bool{}
	for _, a := range body {
		h.classify(a)
	}
	return ""
}

// classify files one access of the goroutine body under its root slice,
// or as another heap access.
func (h *heapPass) classify(a access) {
	if a.addr && h.pointees[ast.Unparen(a.e)] {
		return // p := &s[k]: the accesses through p are s[k]'s
	}
	if a.slice != nil && h.affine().contained[a.slice] {
		return // a contained sub-slice (depend.go): the accesses through it are listed on their own
	}
	if rt, cs, ok := h.rowAccess(a); ok {
		h.classifyRows(a, rt, cs)
		return
	}
	var rt *heapRoot
	var idx ast.Expr
	owned := ""
	if a.elems {
		if sl, ok := ast.Unparen(a.e).(*ast.SliceExpr); ok && a.mode == read {
			if rt = h.rootOf(sl.X); rt != nil && !rt.rows && sl.Low != nil && sl.High != nil && !sl.Slice3 {
				if fam, ok := h.chunk(sl.Low, sl.High); ok {
					owned = fmt.Sprintf("own:%s·1+0", fam)
				}
			}
		} else {
			rt = h.rootOf(h.resolveLocal(a.e))
		}
	} else {
		rt, idx = h.locate(a.e)
		if rt != nil {
			owned = h.position(idx)
		}
	}
	// The dependence test on footprints (depend.go): a band form where
	// the forms above find nothing, and the footprint for the hull.
	frt, f, hasFoot := h.fileFoot(a, rt, idx)
	if hasFoot && owned == "" {
		if form := h.bandForm(frt, f); form != "" {
			rt, owned = frt, form
		}
	}
	if rt == nil && h.aff != nil {
		// Through a contained sub-slice whose footprint is unknown (dst :=
		// q[lo:hi] with lo, hi by division): an access of its root's
		// elements without a form, not of any float64 anywhere, so the
		// construct's other roots keep their proofs (under the guard).
		if srt := h.aff.through[a.e]; srt != nil {
			rt = srt
			if !hasFoot {
				h.aff.noFoot[srt] = true // no hull over srt: this access's footprint is unknown
			}
		}
	}
	if rt == nil && !a.addr && h.privateElem(a.e, a.elems) {
		key := a.e
		if a.key != nil {
			key = a.key
		}
		h.private = append(h.private, ast.Unparen(key))
		return
	}
	if rt == nil {
		if a.mode&write != 0 {
			h.plainW = append(h.plainW, a.typ)
		}
		if a.mode&read != 0 {
			h.plainR = append(h.plainR, a.typ)
			if a.mode == read && !a.elems {
				h.other[ast.Unparen(a.e)] = a.typ
			}
		}
		return
	}
	switch {
	case owned == "":
		rt.unowned = true
	case a.mode&write != 0:
		rt.wforms[owned] = true
	default:
		rt.rforms[owned] = true
	}
	if a.mode&write != 0 {
		rt.written = true
	}
	if !hasFoot || frt != rt {
		rt.footless = true
	}
	if !h.directAccess(a, rt) {
		rt.wide = true
	}
	key := a.e
	if a.key != nil {
		key = a.key
	}
	rt.exprs = append(rt.exprs, ast.Unparen(key))
}

// locate finds the element of a flat root the location e is a part of:
// its root and subscript.
func (h *heapPass) locate(e ast.Expr) (*heapRoot, ast.Expr) {
	for {
		e = ast.Unparen(e)
		switch x := e.(type) {
		case *ast.SelectorExpr:
			if s := h.info.Selections[x]; s != nil && s.Kind() == types.FieldVal && !isPtr(h.info.TypeOf(x.X)) {
				e = x.X
				continue
			}
			return h.viaPointer(x.X)
		case *ast.IndexExpr:
			switch underlying(h.info.TypeOf(x.X)).(type) {
			case *types.Array:
				e = x.X
				continue
			case *types.Slice:
				return h.rootOf(h.resolveLocal(x.X)), x.Index // rows: rows.go
			case *types.Pointer:
				return h.viaPointer(x.X)
			}
		case *ast.StarExpr:
			return h.viaPointer(x.X)
		}
		return nil, nil
	}
}

// viaPointer finds the element p points to, when p is a local of the body
// assigned once as &s[k].
func (h *heapPass) viaPointer(p ast.Expr) (*heapRoot, ast.Expr) {
	u, ok := h.resolveLocal(p).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil, nil
	}
	return h.locate(u.X)
}

// resolveLocal replaces a local of the goroutine body (or of a callee
// walked in place) assigned once by its value.
func (h *heapPass) resolveLocal(e ast.Expr) ast.Expr {
	return h.substitute(e, func(v *types.Var) bool { return within(v.Pos(), h.fk.Body) || h.inBoundCallee(v) })
}

// rootOf is the flat root of the slice expression x, if x is a stable path.
func (h *heapPass) rootOf(x ast.Expr) *heapRoot {
	x = ast.Unparen(x)
	el := elemType(h.info.TypeOf(x))
	if _, slice := underlying(h.info.TypeOf(x)).(*types.Slice); !slice || el == nil || !h.stable(x) {
		return nil
	}
	return h.root("flat:"+h.canon(x), x, false, el)
}

func (h *heapPass) root(key string, path ast.Expr, rows bool, el types.Type) *heapRoot {
	if rt := h.roots[key]; rt != nil {
		return rt
	}
	rt := &heapRoot{path: path, rows: rows, elem: el, wforms: map[string]bool{}, rforms: map[string]bool{}}
	h.roots[key] = rt
	h.order = append(h.order, key)
	return rt
}

// prove decides each root and the other heap reads, and the guard. When
// it finds an assumption of the classification false (heapRounds), it
// adds it to off, reports true and leaves p to be discarded.
func (h *heapPass) prove(p *HeapProof, off *retracted) bool {
	overlaps := h.overlaps
	proven := map[string]bool{}
	for _, k := range h.order {
		rt := h.roots[k]
		switch {
		case overlaps(h.plainW, rt.elem):
		case !rt.written:
			proven[k] = true
		case h.pool: // its items are no iterations: no written root is proven
		case overlaps(h.plainR, rt.elem):
		case h.separated(rt) || h.proveExact(rt):
			proven[k] = true
		}
	}
	for k := range h.readOnlyRoots {
		if !h.readOnlyRoot(k, proven) {
			h.unproveThrough(strings.TrimPrefix(k, "flat:"), proven)
		}
	}
	if h.retract(proven, off) {
		return true
	}
	inGuard := map[string]bool{}
	partners := map[string][]string{}
	for _, k := range h.order {
		if !proven[k] {
			continue
		}
		if rt := h.roots[k]; rt.rows && rt.written {
			inGuard[k] = true // its rows must be apart from each other
		}
		for _, q := range h.order {
			a, b := h.roots[k], h.roots[q]
			if q != k && h.overlap(a.elem, b.elem) && (a.written || b.written) && !(h.fresh(a) && h.fresh(b)) {
				inGuard[k], inGuard[q] = true, true
				partners[k] = append(partners[k], q)
			}
		}
	}
	nar := h.narrowGuard(inGuard)
	for _, k := range h.order {
		if inGuard[k] {
			rt := h.roots[k]
			g, ok := nar.spans[k]
			if !ok {
				g = GuardSpan{Path: rt.path, Rows: rt.rows, Depth: rt.depth, Write: rt.written}
			}
			p.Guard = append(p.Guard, g)
		}
	}
	injective := map[string]bool{}
	assumes := map[string][]string{} // the index slices a root's proof assumes injective
	if len(nar.conds) > 0 {
		g := GuardSpan{Path: &ast.Ident{Name: strings.Join(nar.roots, ", ")}, Injective: true, Range: true, Cond: conjunction(nar.conds)}
		p.Guard = append(p.Guard, g)
		for _, k := range nar.keys {
			assumes[k] = append(assumes[k], g.What())
		}
	}
	for _, k := range h.order {
		if !proven[k] || !h.roots[k].written {
			continue
		}
		for _, key := range h.sortedIndexes() {
			if h.usesIndex(h.roots[k].proof(), key) {
				inGuard[k], injective[key] = true, true
				assumes[k] = append(assumes[k], h.indexes[key].What())
			}
		}
	}
	for _, key := range h.sortedIndexes() {
		if injective[key] {
			p.Guard = append(p.Guard, h.indexes[key])
		}
	}
	for _, k := range h.order {
		if rt := h.roots[k]; proven[k] && rt.written && h.aff != nil && len(h.bandConds(rt.proof())) > 0 {
			g := GuardSpan{Path: rt.path, Injective: true, Band: true, Cond: conjunction(h.bandConds(rt.proof()))}
			inGuard[k] = true
			p.Guard = append(p.Guard, g)
			assumes[k] = append(assumes[k], g.What())
		}
	}
	for _, k := range h.order {
		if !proven[k] {
			continue
		}
		rt := h.roots[k]
		what := types.ExprString(rt.path)
		if rt.rows {
			what = "the rows of " + what
		}
		if rt.depth > 1 {
			what = "the rows of " + what
		}
		v := HeapVerdict{Independent: rt.written, Guarded: inGuard[k]}
		if rt.written {
			v.Why = "each iteration touches its own elements of " + what
		} else {
			v.Why = "nothing in the construct writes " + what
		}
		var when []string
		if len(partners[k]) > 0 {
			when = append(when, nar.apart(h, k, partners[k]))
		}
		when = append(when, assumes[k]...)
		if len(when) > 0 {
			v.Why += " (when " + strings.Join(when, " and ") + ")"
		}
		for _, e := range rt.exprs {
			p.verdicts[e] = v
		}
	}
	for _, e := range h.private {
		if h.pool {
			break // a buffer the worker allocated is used by each of its items
		}
		p.verdicts[e] = HeapVerdict{Independent: true, Why: "an element of a buffer the iteration allocated, which no other reaches"}
	}
	for e, t := range h.other {
		if !h.written(t) {
			p.verdicts[e] = HeapVerdict{Why: "nothing in the construct writes a " + types.TypeString(t, types.RelativeTo(h.r.finder.pkg))}
		}
	}
	h.proveCalls(p)
	return false
}

// retract adds to off the assumptions proven shows false: a stored buffer
// another iteration may read (storedRead), a rows root whose headers may
// be written (headersWritten). It reports whether there was one.
func (h *heapPass) retract(proven map[string]bool, off *retracted) bool {
	n := len(off.bufs) + len(off.rows)
	for _, v := range h.storedRead(proven) {
		off.bufs[v] = true
	}
	for _, k := range h.headersWritten(proven) {
		off.rows[k] = true
	}
	return len(off.bufs)+len(off.rows) > n
}

// unproveThrough drops the proofs of the written roots with a position
// through the index slice canon (an inj: position over it, or a cells:
// one over its rows or selecting rows with it).
func (h *heapPass) unproveThrough(canon string, proven map[string]bool) {
	for key, g := range h.indexes {
		if h.canon(g.Path) != canon && (g.Sel == nil || h.canon(g.Sel) != canon) {
			continue
		}
		for _, k := range h.order {
			if h.roots[k].written && h.usesIndex(h.roots[k].proof(), key) {
				proven[k] = false
			}
		}
	}
}

// usesIndex reports whether a write of rt has a position through the
// index span keyed key.
func (h *heapPass) usesIndex(rt *heapRoot, key string) bool {
	for f := range rt.wforms {
		if strings.Contains(f, key+"[") {
			return true
		}
	}
	return false
}

// owned reports whether the written root rt is independent by its
// positions: every write uses one owned position, and every read uses it
// too or a position no iteration writes.
func (h *heapPass) owned(rt *heapRoot) bool {
	if len(rt.wforms) != 1 {
		return false
	}
	var w string
	for f := range rt.wforms {
		w = f
	}
	if !owning(w) {
		return false
	}
	for r := range rt.rforms {
		if r != w && !h.disjointForms(r, w) {
			return false
		}
	}
	return true
}

// sortedIndexes lists the keys of h.indexes in order.
func (h *heapPass) sortedIndexes() []string {
	keys := make([]string, 0, len(h.indexes))
	for k := range h.indexes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// fresh reports whether a flat root is a local that holds, all its life,
// an array it allocated itself (v := make(…) or a slice literal): two such
// locals never share memory.
func (h *heapPass) fresh(rt *heapRoot) bool {
	id, ok := ast.Unparen(rt.path).(*ast.Ident)
	if rt.rows || !ok {
		return false
	}
	v, _ := h.info.Uses[id].(*types.Var)
	if v == nil || !h.immutable(v) {
		return false
	}
	switch d := ast.Unparen(h.defs[v]).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.CallExpr:
		return isBuiltin(d, "make", h.info)
	}
	return false
}

// poolReadOnly reports whether the heap proofs of c may be those of a
// worker pool: one worker, a function literal started in a loop (the
// construct's first statement) and taking items from a channel. Only one
// verdict holds for a pool: a root nothing in the construct writes is
// read-only (under the guard that it is apart from the roots written),
// which asks nothing of how items or iterations share the elements. The
// ownership forms, private buffers and bands are all claims about
// iterations, and a pool's blocks are its items: none is made.
func poolReadOnly(c *Construct, loop ast.Stmt) bool {
	return c.Kind == Pool && len(c.Forks) == 1 && c.Forks[0].Items != nil && c.Forks[0].Body != nil && loop != nil
}
