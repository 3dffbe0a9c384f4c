package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
)

// What a range loop over an array reads. The spec: "The range expression x
// is evaluated once before beginning the loop, with one exception: if at
// most one iteration variable is present and len(x) is constant, the range
// expression is not evaluated", and len(x) is constant when x is an array
// or a pointer to an array and contains no channel receive or non-constant
// function call. The rewriter read X as any operand, so
//
//	for i := range t.arr { … }     // t.arr a [4]int
//
// became `range *_ga_rt.RA(t, &t.arr, site)`: a read of the whole array the
// program never makes, and a write of t.arr[3] by another goroutine was
// reported as a race (`go run -race` is silent; testscript
// race_range_array_len). Now:
//
//   - not evaluated (rangeUnevaluated): X is left as written, nothing of
//     it is checked, not even the pointers on its path (range p.arr reads
//     neither p nor the array);
//   - evaluated (a call or a receive in X, or `i, _ :=`, two variables
//     for the spec): X is read as any operand, the whole array included,
//     as -race reads it (`for i, _ := range t.arr` and `range *h()` race
//     with a write of t.arr[3] under -race), though the loop uses no value;
//   - with a value over an array value: the loop copies the array once,
//     before it starts, and that read is X's check (RA). The elements are
//     not read again in the iterations, so there is no per-element check
//     (rangeElemCheck); over a slice or a pointer to an array each
//     iteration reads its element and is checked there.

// rangeValue is the value variable of loop a, nil when it has none or it
// is blank: the loop then reads no element in its iterations (X itself is
// still evaluated when the value is blank).
func rangeValue(a *ast.RangeStmt) ast.Expr {
	if id, ok := a.Value.(*ast.Ident); ok && id.Name == "_" {
		return nil
	}
	return a.Value
}

// arrayRange reports whether t, the type of a range expression, is an
// array (ptr false) or a pointer to an array (ptr true).
func arrayRange(t types.Type) (isArray, ptr bool) {
	switch u := underlying(t).(type) {
	case *types.Array:
		return true, false
	case *types.Pointer:
		_, ok := u.Elem().Underlying().(*types.Array)
		return ok, ok
	}
	return false, false
}

// rangeUnevaluated reports whether the range expression of loop a is not
// evaluated at all (the spec's exception above): at most one iteration
// variable, X an array or a pointer to one, and no receive or non-constant
// call in X (go/types' hasCallOrRecv: conversions do not count, builtins
// only when their result is not constant, function literals' bodies are
// not part of X's evaluation).
func (w *walker) rangeUnevaluated(a *ast.RangeStmt) bool {
	if a == nil || a.Value != nil {
		return false // `i, _ :=` is two variables: X is evaluated (not copied)
	}
	if isArr, _ := arrayRange(w.info.TypeOf(a.X)); !isArr {
		return false
	}
	calls := false
	ast.Inspect(a.X, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			calls = calls || x.Op == token.ARROW
		case *ast.CallExpr:
			if tv, ok := w.info.Types[ast.Unparen(x.Fun)]; ok && tv.IsType() {
				break // a conversion
			}
			if tv, ok := w.info.Types[x]; ok && tv.Value != nil {
				break // a constant builtin call: len of an array
			}
			calls = true
		}
		return !calls
	})
	return !calls
}
