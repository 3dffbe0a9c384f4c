package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/plan"
	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// Implicit accesses: memory an expression reads or writes without naming
// it. A conversion string(b) reads every element of b; a method called
// through a pointer with a value receiver copies the pointee; a method
// promoted through an embedded pointer reads that field first. Each is
// checked where the expression is evaluated, with the expression's own
// position, so a report names what the user wrote.

// conversion rewrites T(v) (its operand already rewritten): a conversion of
// a slice to a string reads every element of the slice, and one of a
// string to a slice makes a new backing array, whose address the
// collector may have given another object before (Make forgets it, as it
// does make's: a []byte(s) per iteration in two goroutines was a false
// WRITE-WRITE under -hb once a collection reused the address).
func (w *walker) conversion(x *dst.CallExpr, a *ast.CallExpr) dst.Expr {
	if w.task == "" || len(a.Args) != 1 {
		return x
	}
	to, from := w.info.TypeOf(a), w.info.TypeOf(a.Args[0])
	if makesSlice(to, from) {
		w.change()
		return w.rtCall(rtnames.Make, w.taskExpr(), x)
	}
	args := []dst.Expr{w.taskExpr(), x.Args[0]}
	fn := rtnames.ReadAll
	if n, ok := arrayOfSlice(to, from); ok {
		// [N]T(s) copies s's first N elements (it panics when s is shorter)
		fn, args = rtnames.ReadHead, append(args, &dst.BasicLit{Kind: token.INT, Value: itoa(int(n))})
	} else if !readsElems(to, from) {
		return x
	}
	site := w.site(a.Pos(), types.ExprString(a))
	w.record(a, rtnames.R, plan.Checked)
	w.change()
	x.Args[0] = w.rtCall(fn, append(args, siteLit(site))...)
	return x
}

// arrayOfSlice reports whether converting a value of type from to type to
// copies a slice into an array value ([4]byte(b)), and the array's length.
func arrayOfSlice(to, from types.Type) (int64, bool) {
	arr, ok := underlying(to).(*types.Array)
	if !ok {
		return 0, false
	}
	_, slice := underlying(from).(*types.Slice)
	return arr.Len(), slice
}

// readsElems reports whether converting a value of type from to type to
// reads the elements of a slice: []byte or []rune to a string.
func readsElems(to, from types.Type) bool {
	b, ok := underlying(to).(*types.Basic)
	if !ok || b.Info()&types.IsString == 0 {
		return false
	}
	_, slice := underlying(from).(*types.Slice)
	return slice
}

// makesSlice reports whether converting a value of type from to type to
// makes a new slice: a string to []byte or []rune.
func makesSlice(to, from types.Type) bool {
	if _, slice := underlying(to).(*types.Slice); !slice {
		return false
	}
	b, ok := underlying(from).(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// appendTail rewrites append(s, tail...) whose tail is a string or an
// expression the rewriter cannot evaluate twice: the call becomes
// _ga_rt.AppendSlice/AppendString(t, s, tail, ws, rs), which checks the
// growth of s as Grow does (and the reads of tail's elements) and appends.
func (w *walker) appendTail(x *dst.CallExpr, a *ast.CallExpr, ws uint32) dst.Expr {
	last := a.Args[len(a.Args)-1]
	fn := rtnames.AppendSlice
	tail := x.Args[1]
	if stringLike(w.info.TypeOf(last)) {
		fn = rtnames.AppendString
		if _, tp := types.Unalias(w.info.TypeOf(last)).(*types.TypeParam); tp {
			tail = w.asString(tail, last) // ~string|~[]byte satisfies no ~string: convert
		}
	}
	rs := w.site(last.Pos(), types.ExprString(last))
	w.change()
	return w.rtCall(fn, w.taskExpr(), x.Args[0], tail, siteLit(ws), siteLit(rs))
}

// recvPath rewrites the operand of a method selection x.M promoted through
// embedded fields: x.E1.E2.M spelled out, each embedded pointer or
// interface field on the way read (checked), and the receiver then treated
// as recv does. It reports false, changing nothing, when a field on the
// path cannot be spelled here (unexported, of another package).
func (w *walker) recvPath(x *dst.SelectorExpr, a *ast.SelectorExpr, s *types.Selection) (dst.Expr, bool) {
	idx := s.Index()
	t := w.info.TypeOf(a.X)
	var fields []*types.Var
	for _, i := range idx[:len(idx)-1] {
		st, _ := derefStruct(t)
		if st == nil {
			return nil, false
		}
		f := st.Field(i)
		if !f.Exported() && f.Pkg() != w.pkg.Types {
			return nil, false
		}
		fields = append(fields, f)
		t = f.Type()
	}
	t = w.info.TypeOf(a.X)
	if !isPointer(t) && !addressable(a.X, w.info) {
		return nil, false // f().E.M: no address to check the fields at
	}
	shared := isPointer(t) || w.sharedLoc(a.X)
	var e dst.Expr
	if isPointer(t) {
		e = w.rval(x.X)
	} else {
		e = w.addr(x.X) // a path to the embedded field: nothing read yet
	}
	what := types.ExprString(a.X)
	for _, f := range fields {
		e = &dst.SelectorExpr{X: e, Sel: dst.NewIdent(f.Name())}
		what += "." + f.Name()
		_, iface := underlying(f.Type()).(*types.Interface)
		if shared && (isPointer(f.Type()) || iface) {
			e = w.implicitRead(e, a.Sel.Pos(), what, rtnames.R, true)
		}
		shared = shared || isPointer(f.Type()) || iface
		t = f.Type()
	}
	return w.recvOf(e, t, s, a.Sel.Pos(), what, shared), true
}

// recvOf finishes the receiver e (already rewritten, of type t) of method
// s: a value method reached through a pointer copies the pointee, a value
// method of an embedded struct value copies it; both are whole reads.
func (w *walker) recvOf(e dst.Expr, t types.Type, s *types.Selection, pos token.Pos, what string, shared bool) dst.Expr {
	sig, _ := s.Obj().Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil || isPointer(sig.Recv().Type()) || types.IsInterface(sig.Recv().Type()) {
		return e // a pointer method takes the address; an interface method reads the interface value only
	}
	if p, ok := underlying(t).(*types.Pointer); ok {
		return w.implicitDeref(e, p.Elem(), pos, "*"+what)
	}
	if shared {
		fn := rtnames.R
		if aggregate(t) {
			fn = rtnames.RA
		}
		return w.implicitRead(e, pos, what, fn, true)
	}
	return e
}

// implicitDeref returns (*_ga_rt.R(t, p, site)) for the pointer expression
// p whose pointee of type elem a value method copies (RA for an array or
// a struct: every leaf is read).
func (w *walker) implicitDeref(p dst.Expr, elem types.Type, pos token.Pos, what string) dst.Expr {
	if w.task == "" {
		return p
	}
	fn := rtnames.R
	if aggregate(elem) {
		fn = rtnames.RA
	}
	site := w.site(pos, what)
	w.recordAt(pos, what, plan.Read)
	w.change()
	return &dst.ParenExpr{X: &dst.StarExpr{X: w.rtCall(fn, w.taskExpr(), p, siteLit(site))}}
}

// implicitRead returns (*_ga_rt.<fn>(t, &e, site)) for the location e
// (addressable) read without being named.
func (w *walker) implicitRead(e dst.Expr, pos token.Pos, what, fn string, addr bool) dst.Expr {
	if w.task == "" {
		return e
	}
	site := w.site(pos, what)
	w.recordAt(pos, what, plan.Read)
	w.change()
	var p dst.Expr = e
	if addr {
		p = &dst.UnaryExpr{Op: token.AND, X: e}
	}
	return &dst.ParenExpr{X: &dst.StarExpr{X: w.rtCall(fn, w.taskExpr(), p, siteLit(site))}}
}

// recordAt records a checked access that no expression of the source
// names (an implicit one) in the plan.
func (w *walker) recordAt(pos token.Pos, what string, op plan.Op) {
	c := w.planned[w.cur]
	if w.inClone && c != nil || w.silent {
		return
	}
	acc := plan.Access{Pos: plan.PosOf(w.pkg.Fset, pos), What: what, Op: op, Verdict: plan.Checked}
	switch {
	case c != nil:
		c.Accesses = append(c.Accesses, acc)
	case w.cur == nil && w.task != "":
		w.plan.Called = append(w.plan.Called, acc)
	}
}

// mutexWord returns ptr, a pointer to a mutex being locked, wrapped as
// _ga_rt.AR(t, ptr, site): Lock reads and writes the mutex's state word.
// Recorded as an atomic read, it never conflicts with another Lock (they
// are synchronized) but does with a plain write of the mutex
// (mu = sync.Mutex{}) in a concurrent block.
func (w *walker) mutexWord(ptr dst.Expr, a *ast.SelectorExpr, what string) dst.Expr {
	if w.task == "" || w.task == hbTask {
		// -hb outside constructs: a thread's lock orders, and its check
		// as an atomic read cost a quarter of a lock-heavy program's time
		// (bench/unstructured/cache); a plain write of a locked mutex is
		// not reported there
		return ptr
	}
	if s := w.info.Selections[a]; !isPointer(w.info.TypeOf(a.X)) && !w.sharedLoc(a.X) && (s == nil || !s.Indirect()) {
		return ptr // a mutex no other goroutine reaches
	}
	site := w.site(a.Pos(), what)
	w.change()
	return w.rtCall(rtnames.AR, w.taskExpr(), ptr, siteLit(site))
}
