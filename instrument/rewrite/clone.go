package rewrite

import (
	"fmt"
	"go/ast"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

// clone returns the checked copy of a function called from construct code:
// the same declaration named _ga_<name>, taking the caller's task first,
// every shared access checked with it:
//
//	func f(x int) int { … }   →   func _ga_f(_ga_t *_ga_rt.Task, x int) int { … }
//
// The copy is decorated afresh from the original syntax, so it shares the
// analysis of the original, and each of its statements is anchored to the
// original's line.
func (fr *fileRewriter) clone(fd *ast.FuncDecl) dst.Decl {
	return fr.cloneAs(fd, cloneName(fd.Name.Name), nil)
}

// contextClone returns the clone of fd made for one call of a callback
// (analysis/cbclone.go): the checked clone under another name, with the
// accesses cc's proof covers left unchecked.
func (fr *fileRewriter) contextClone(fd *ast.FuncDecl, cc *analysis.ContextClone) dst.Decl {
	return fr.cloneAs(fd, cc.Name, cc.Proof)
}

// cloneAs is clone, naming the copy name and rewriting it under the proof
// spec (nil: every shared access checked).
func (fr *fileRewriter) cloneAs(fd *ast.FuncDecl, name string, spec *analysis.HeapProof) dst.Decl {
	dec := decorator.NewDecorator(fr.pkg.Fset)
	n, err := dec.DecorateNode(fd)
	if err != nil {
		panic(fmt.Sprintf("internal error: decorating %s: %v", fd.Name.Name, err))
	}
	cd := n.(*dst.FuncDecl)
	cd.Name.Name = name
	nameFields(cd.Type.Params, "_ga_p") // func f(int, string): the task's name must not mix with none
	cd.Type.Params.List = append([]*dst.Field{taskParam("_ga_t")}, cd.Type.Params.List...)
	p := fr.pkg.Fset.Position(fd.Type.Func)
	cd.Decs.Start.Replace("\n", lineDirective(p, true))
	cd.Decs.Start = append(dst.Decorations{"\n"}, cd.Decs.Start...)
	w := fr.walker(dec, "_ga_t")
	w.inClone = true
	w.spec = spec
	w.block(cd.Body)
	w.callbackItemsDecl(cd.Body, "_ga_t", fd) // a block per item if its goroutine drains the channel
	fr.wrapExits(dec, cd.Body)
	cd.Body.List = append(w.freshFields(fd.Recv, fd.Type.Params, fd.Type.Results), cd.Body.List...)
	w.anchor()
	fr.changed = true
	return cd
}
