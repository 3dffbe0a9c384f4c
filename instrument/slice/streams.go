package slice

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// findStreamsAndRecover records whether f calls recover (a recovered
// panic's value may decide what runs next) or declares a method fmt calls
// (String, Error, Format, GoString: fmt recovers a panic in one and
// formats its value into its output), and whether it may redirect
// standard output or error to something it reads back: it names os.Stdout
// or os.Stderr other than to write to it (a call of its Write,
// WriteString or Sync, or an argument whose parameter has no Read, ReadAt,
// Seek or Fd: fmt.Fprintln(os.Stdout, ...), bufio.NewWriter(os.Stdout)),
// so assigns it, takes its address, copies it or reads from it; or it
// calls a Dup2 or Dup3 (syscall, x/sys/unix). A print to such a stream is not output only: the program may
// read it back (os.Stdout = f; fmt.Println(3); os.ReadFile(f.Name())).
// Whether the stream the program was started with is a file it reads back
// (prog >out; the program reads out) is the environment's, not the
// program's: docs/slice.md says so.
func (ps *pkgState) findStreamsAndRecover(f *ast.File) {
	info := ps.p.Info
	ok := map[ast.Expr]bool{} // uses of a stream that only write to it
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			switch n.Name.Name {
			case "String", "Error", "Format", "GoString":
				if n.Recv != nil {
					ps.a.recovers = true // fmt recovers its panics into the text it formats
				}
			}
		case *ast.SelectorExpr:
			if ps.stdStream(n) && !ok[n] {
				ps.a.streams = true // assigned, its address taken, copied, read
			}
		case *ast.CallExpr:
			if ps.builtin(n) == "recover" {
				ps.a.recovers = true
			}
			if sel, isSel := ast.Unparen(n.Fun).(*ast.SelectorExpr); isSel && ps.stdStream(sel.X) {
				switch sel.Sel.Name {
				case "Write", "WriteString", "Sync":
					ok[sel.X] = true
				}
			}
			callee := typeutil.StaticCallee(info, n)
			if callee != nil && callee.Pkg() != nil && (callee.Name() == "Dup2" || callee.Name() == "Dup3") {
				switch callee.Pkg().Path() {
				case "syscall", "golang.org/x/sys/unix":
					ps.a.streams = true
				}
			}
			sig, _ := info.TypeOf(n.Fun).(*types.Signature)
			for i, a := range n.Args {
				if sig != nil && ps.stdStream(a) && !readable(paramType(sig, i)) {
					ok[ast.Unparen(a)] = true
				}
			}
		}
		return true
	})
}

// paramType is the type of the i-th argument's parameter (the variadic
// element type past the last).
func paramType(sig *types.Signature, i int) types.Type {
	ps := sig.Params()
	if ps.Len() == 0 {
		return nil
	}
	if sig.Variadic() && i >= ps.Len()-1 {
		if s, ok := ps.At(ps.Len() - 1).Type().(*types.Slice); ok {
			return s.Elem()
		}
	}
	if i >= ps.Len() {
		return nil
	}
	return ps.At(i).Type()
}

// readable reports whether a value of type t may be read from or
// repositioned: it has Read, ReadAt or Seek, or is an interface too
// wide to say (any), or not known.
func readable(t types.Type) bool {
	if t == nil {
		return true
	}
	if it, ok := t.Underlying().(*types.Interface); ok && it.NumMethods() == 0 {
		return true
	}
	ms := types.NewMethodSet(t)
	for _, m := range []string{"Read", "ReadAt", "Seek", "Fd", "SyscallConn"} {
		if ms.Lookup(nil, m) != nil {
			return true
		}
	}
	return false
}

// hasExample reports whether test file f declares an example: the testing
// package points os.Stdout at a pipe, runs it, and compares what it
// printed with its Output comment, so its prints are not output only.
func hasExample(f *ast.File) bool {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Example") {
			return true
		}
	}
	return false
}
